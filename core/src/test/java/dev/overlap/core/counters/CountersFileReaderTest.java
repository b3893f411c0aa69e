package dev.overlap.core.counters;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CountersFileReader} on made-up files: each bad file refused with its name, a dead owner told apart. */
class CountersFileReaderTest {
    private static final int COUNTERS = 4;

    @TempDir
    Path dir;

    /** A well-formed file image for {@code pid}; the caller may spoil it. */
    private static byte[] image(final long pid, final long startTime) {
        final int meta = COUNTERS * CountersReader.METADATA_LENGTH;
        final int values = COUNTERS * CountersReader.COUNTER_LENGTH;
        final byte[] bytes = new byte[CountersFile.HEADER_LENGTH + meta + values];
        CountersFile.writeHeader(new UnsafeBuffer(bytes), meta, values, pid, startTime);
        return bytes;
    }

    private Path write(final String name, final byte[] bytes) throws Exception {
        final Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static void assertRefused(final Path file, final String reason) {
        final CountersFileException e = assertThrows(CountersFileException.class, () -> CountersFileReader.open(file));
        assertTrue(e.getMessage().startsWith(file.toString() + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertEquals(file, e.file());
    }

    @Test
    void aWellFormedFileOfADeadProcessOpensAndSaysSo() throws Exception {
        final Process p = new ProcessBuilder("true").start();
        p.waitFor();
        final long startTime = p.info().startInstant().map(i -> i.toEpochMilli()).orElse(1L);
        final CountersFileReader reader = CountersFileReader.open(write(CountersFile.PREFIX + p.pid()
            + CountersFile.SUFFIX, image(p.pid(), startTime)));
        assertEquals(p.pid(), reader.pid());
        assertFalse(reader.isOwnerAlive(), "the process exited");
        final int[] seen = new int[1];
        reader.counters().forEach((value, id, label) -> seen[0]++);
        assertEquals(0, seen[0]);
    }

    @Test
    void aLivePidThatStartedAnotherTimeIsAReusedPid() throws Exception {
        final long me = ProcessHandle.current().pid();
        final long myStart = CountersFile.processStartTime();
        assertTrue(CountersFileReader.open(write("alive.counters", image(me, myStart))).isOwnerAlive());
        assertFalse(CountersFileReader.open(write("reused.counters", image(me, myStart - 3_600_000))).isOwnerAlive());
    }

    @Test
    void missingEmptyTruncatedCorruptAndForeignFilesAreRefusedNamingTheFile() throws Exception {
        assertRefused(dir.resolve("nothing.counters"), "no such file");
        assertRefused(write("empty.counters", new byte[0]), "empty");
        assertRefused(write("short.counters", new byte[100]), "truncated: 100 bytes");
        final byte[] whole = image(1, 1);
        final byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 1);
        assertRefused(write("cut.counters", cut), "truncated: " + cut.length + " bytes, the header says "
            + whole.length);
        assertRefused(write("unready.counters", new byte[whole.length]), "not ready");
        final byte[] foreign = image(1, 1);
        ByteBuffer.wrap(foreign).order(ByteOrder.LITTLE_ENDIAN).putLong(CountersFile.MAGIC_OFFSET, 0x1234L);
        assertRefused(write("foreign.counters", foreign), "not an Overlap counters file");
        final byte[] version = image(1, 1);
        ByteBuffer.wrap(version).order(ByteOrder.LITTLE_ENDIAN).putInt(CountersFile.VERSION_OFFSET, 9);
        assertRefused(write("version.counters", version), "layout version 9");
        final byte[] lengths = image(1, 1);
        ByteBuffer.wrap(lengths).order(ByteOrder.LITTLE_ENDIAN).putInt(CountersFile.VALUES_LENGTH_OFFSET, 100);
        assertRefused(write("lengths.counters", lengths), "corrupt header");
    }

    @Test
    void theHeaderIsInvisibleUntilItsMagicIsWritten() {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[CountersFile.HEADER_LENGTH]);
        assertNull(CountersFileReader.readHeader(b));
        CountersFile.writeHeader(b, 512, 128, 77, 88);
        final CountersFileReader.Header h = CountersFileReader.readHeader(b);
        assertEquals(77, h.pid());
        assertEquals(88, h.startTimeMillis());
        assertEquals(512 + 128 + CountersFile.HEADER_LENGTH, h.fileLength());
    }

    @Test
    void listFindsOnlyCountersFiles() throws Exception {
        assertTrue(CountersFileReader.list(dir.resolve("absent")).isEmpty());
        write("overlap-2.counters", image(2, 1));
        write("overlap-1.counters", image(1, 1));
        write("other.txt", new byte[1]);
        assertEquals(List.of(dir.resolve("overlap-1.counters"), dir.resolve("overlap-2.counters")),
            CountersFileReader.list(dir));
    }
}
