package dev.overlap.graph.cli;

import dev.overlap.core.counters.CountersFile;
import dev.overlap.core.counters.CountersFileReader;
import dev.overlap.transport.TransportCounter;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code overlap stat}: reads the counters of an {@code overlap bfs} running in another JVM, and the made-up files of
 * dead, corrupt or truncated owners. No sleeps as synchronisation: the test polls the file with a deadline.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatCommandTest {
    /** A stat line: id, type id, value (with grouping commas), label. */
    private static final Pattern LINE = Pattern.compile("^\\s*(\\d+)\\s+(\\d+)\\s+([\\d,]+) - (.*)$",
        Pattern.MULTILINE);

    @TempDir
    Path dir;

    /** @return the sum of the printed values of counters whose label ends with {@code suffix} */
    private static long sum(final String statOutput, final String suffix) {
        long sum = 0;
        final Matcher m = LINE.matcher(statOutput);
        while (m.find()) {
            if (m.group(4).endsWith(suffix)) {
                sum += Long.parseLong(m.group(3).replace(",", ""));
            }
        }
        return sum;
    }

    @Test
    void statReadsTheCountersOfABfsRunningInAnotherProcess() throws Exception {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--add-exports");
        cmd.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(OverlapCommand.class.getName());
        cmd.addAll(List.of("bfs", "--generate", "kron:12", "--mode", "async", "--devices", "2",
            "--threads-per-device", "1", "--runs", "1000", "--warmups", "0", "--until-stdin-closes", "--quiet",
            "--counters-dir", dir.toString()));
        final Path out = Files.createTempFile("stat-child", ".out");
        final Process child = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectErrorStream(true).start();
        final Path file = CountersFile.fileOf(dir, child.pid());
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            CliRun seen = null;
            while (System.nanoTime() < deadline && child.isAlive()) {
                if (Files.exists(file)) {
                    final CliRun stat = new CliRun("stat", "--counters-dir", dir.toString(), "--type",
                        TransportCounter.MESSAGES_SENT.typeId() + "," + TransportCounter.MESSAGES_DELIVERED.typeId());
                    if (stat.exit == 0 && sum(stat.out, ": messages sent") > 0
                        && sum(stat.out, "inbox: messages delivered") > 0) {
                        seen = stat;
                        break;
                    }
                }
                Thread.onSpinWait(); // polling the child's file until the condition holds, bounded by the deadline
            }
            assertTrue(seen != null, "no stat of the running bfs showed messages sent and delivered; child output: "
                + (Files.exists(out) ? Files.readString(out) : "") + (child.isAlive() ? "" : " (exit "
                + child.exitValue() + ")"));
            assertTrue(seen.out.startsWith(file.getFileName() + ": pid " + child.pid() + ", started "), seen.out);
            assertTrue(seen.out.contains(", running"), seen.out);
            assertTrue(seen.out.contains("overlap-bfs transport dev0 endpoint 0: messages sent"), seen.out);
            final Matcher m = LINE.matcher(seen.out);
            while (m.find()) {
                final int type = Integer.parseInt(m.group(2));
                assertTrue(type == TransportCounter.MESSAGES_SENT.typeId()
                    || type == TransportCounter.MESSAGES_DELIVERED.typeId(), "the --type filter: " + m.group());
            }
            child.getOutputStream().close(); // tell the child to end its runs
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the bfs did not end after its input closed");
            assertEquals(0, child.exitValue(), Files.readString(out));
            assertFalse(Files.exists(file), "the normal close deletes the counters file");
            final CliRun after = new CliRun("stat", "--counters-dir", dir.toString());
            assertEquals(CliErrors.FAILURE, after.exit);
            assertTrue(after.err.contains("no Overlap counters files in " + dir), after.err);
        } finally {
            child.destroyForcibly().waitFor();
            Files.deleteIfExists(out);
        }
    }

    /** Writes a counters file for {@code pid} with one counter, as a process that died would have left it. */
    private Path madeUp(final long pid, final long startTime, final String label, final long value) throws IOException {
        final int counters = 2;
        final int meta = counters * CountersReader.METADATA_LENGTH;
        final int values = counters * CountersReader.COUNTER_LENGTH;
        final byte[] bytes = new byte[CountersFile.HEADER_LENGTH + meta + values];
        final UnsafeBuffer whole = new UnsafeBuffer(bytes);
        final org.agrona.concurrent.status.CountersManager m = new org.agrona.concurrent.status.CountersManager(
            new UnsafeBuffer(whole, CountersFile.HEADER_LENGTH, meta),
            new UnsafeBuffer(whole, CountersFile.HEADER_LENGTH + meta, values));
        m.newCounter(label, TransportCounter.MESSAGES_SENT.typeId()).set(value);
        CountersFile.writeHeader(whole, meta, values, pid, startTime);
        final Path p = CountersFile.fileOf(dir, pid);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void aStaleFileOfADeadProcessIsSkippedWithANoteOrShownWithStale() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final Path file = madeUp(gone.pid(), 1, "ghost transport dev0 endpoint 0: messages sent", 5);
        final CliRun skipped = new CliRun("stat", "--counters-dir", dir.toString());
        assertEquals(CliErrors.FAILURE, skipped.exit);
        assertEquals("overlap stat: " + file + ": pid " + gone.pid() + " is not running (a stale file: --stale prints "
            + "it; delete it to tidy up)\n", skipped.err);
        final CliRun shown = new CliRun("stat", "--counters-dir", dir.toString(), "--stale");
        assertEquals(0, shown.exit, shown.err);
        assertTrue(shown.out.contains("not running (stale)"), shown.out);
        assertEquals(5, sum(shown.out, "messages sent"), shown.out);
        final CliRun byPid = new CliRun("stat", "--counters-dir", dir.toString(), "--pid", "" + gone.pid());
        assertEquals(0, byPid.exit, "asked for by pid, a stale file is printed, marked as such");
        assertTrue(byPid.out.contains("not running (stale)"), byPid.out);
    }

    @Test
    void unreadableFilesAreNamedInOneLine() throws Exception {
        final long me = ProcessHandle.current().pid();
        final Path good = madeUp(me, CountersFileReader.open(madeUp(me, 0, "x", 0)).header().startTimeMillis(),
            "x", 0);
        Files.delete(good);
        final Path truncated = CountersFile.fileOf(dir, 11);
        Files.write(truncated, new byte[40]);
        final CliRun byPid = new CliRun("stat", "--counters-dir", dir.toString(), "--pid", "11");
        assertEquals(CliErrors.FAILURE, byPid.exit);
        assertEquals("overlap stat: " + truncated + ": truncated: 40 bytes, shorter than the 128-byte header\n",
            byPid.err);
        final Path corrupt = CountersFile.fileOf(dir, 12);
        Files.write(corrupt, new byte[4096]);
        Files.write(corrupt, "not a counters file at all, just text".getBytes(), java.nio.file.StandardOpenOption
            .WRITE);
        final CliRun listing = new CliRun("stat", "--counters-dir", dir.toString());
        assertEquals(CliErrors.FAILURE, listing.exit, "nothing printable");
        final String[] lines = listing.err.split("\n");
        assertTrue(lines[0].startsWith("overlap stat: " + truncated + ": truncated"), listing.err);
        assertTrue(lines[1].startsWith("overlap stat: " + corrupt + ": not an Overlap counters file"), listing.err);
        final CliRun missing = new CliRun("stat", "--counters-dir", dir.toString(), "--pid", "13");
        assertEquals(CliErrors.FAILURE, missing.exit);
        assertEquals("overlap stat: " + CountersFile.fileOf(dir, 13) + ": no such file\n", missing.err);
    }

    @Test
    void watchPrintsAgainAndBadArgumentsExitTwo() throws Exception {
        final long me = ProcessHandle.current().pid();
        final long start = ProcessHandle.current().info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
        madeUp(me, start, "me transport dev0 endpoint 0: messages sent", 9);
        final CliRun watch = new CliRun("stat", "--counters-dir", dir.toString(), "--watch", "0.01", "--count", "3");
        assertEquals(0, watch.exit, watch.err);
        assertEquals(3, watch.out.split("== ", -1).length - 1, watch.out);
        assertEquals(27, sum(watch.out, "messages sent"), watch.out);
        assertEquals(2, new CliRun("stat", "--watch", "0").exit);
        assertEquals(2, new CliRun("stat", "--count", "2").exit);
        assertEquals(2, new CliRun("stat", "--type", "x").exit);
    }
}
