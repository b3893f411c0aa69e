package dev.overlap.core.counters;

import dev.overlap.core.ProcessLiveness;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads another process's {@link CountersFile} (or this one's): maps it read-only, checks the header, and gives an
 * Agrona {@link CountersReader} over its buffers. A file that is missing, shorter than its header says, of another
 * magic or version, or not made yet is refused with a {@link CountersFileException} whose message names the file.
 *
 * <p>Counter values are read with Agrona's {@code getCounterValue} (a volatile load): each value is one the owner
 * published (the owners publish with release stores). The mapping stays valid after the owner deleted the file or
 * died; {@link #isOwnerAlive()} says whether the owner still runs (its pid is alive and started when the header
 * says, so a reused pid does not count).
 *
 * <p>Thread-safety: immutable; the reads may come from any thread.
 */
public final class CountersFileReader {
    private final Path path;
    private final Header header;
    private final CountersReader counters;

    private CountersFileReader(final Path path, final Header header, final CountersReader counters) {
        this.path = path;
        this.header = header;
        this.counters = counters;
    }

    /** A published header: what {@link CountersFile#writeHeader} wrote. Immutable. */
    public static final class Header {
        private final int version;
        private final int headerLength;
        private final int metaDataLength;
        private final int valuesLength;
        private final long pid;
        private final long startTimeMillis;

        Header(final int version, final int headerLength, final int metaDataLength, final int valuesLength,
            final long pid, final long startTimeMillis) {
            this.version = version;
            this.headerLength = headerLength;
            this.metaDataLength = metaDataLength;
            this.valuesLength = valuesLength;
            this.pid = pid;
            this.startTimeMillis = startTimeMillis;
        }

        /** @return the layout version */
        public int version() {
            return version;
        }

        /** @return the header's length */
        public int headerLength() {
            return headerLength;
        }

        /** @return the metadata buffer's length */
        public int metaDataLength() {
            return metaDataLength;
        }

        /** @return the values buffer's length */
        public int valuesLength() {
            return valuesLength;
        }

        /** @return the owner's pid */
        public long pid() {
            return pid;
        }

        /** @return the owner's start time, ms since the epoch */
        public long startTimeMillis() {
            return startTimeMillis;
        }

        /** @return the bytes a file with this header has at least */
        public long fileLength() {
            return (long)headerLength + metaDataLength + valuesLength;
        }
    }

    /**
     * Reads a header: the magic with an acquire load, then the fields.
     *
     * @param buffer at least {@value CountersFile#HEADER_LENGTH} bytes
     * @return the header, or null while the magic is zero (the file is being made)
     * @throws IllegalArgumentException if the magic is another one
     */
    public static Header readHeader(final AtomicBuffer buffer) {
        final long magic = buffer.getLongAcquire(CountersFile.MAGIC_OFFSET);
        if (magic == 0) {
            return null;
        }
        if (magic != CountersFile.MAGIC) {
            throw new IllegalArgumentException("not an Overlap counters file (magic 0x" + Long.toHexString(magic)
                + ", expected 0x" + Long.toHexString(CountersFile.MAGIC) + " '" + CountersFile.MAGIC_TEXT + "')");
        }
        return new Header(buffer.getInt(CountersFile.VERSION_OFFSET), buffer.getInt(CountersFile.HEADER_LENGTH_OFFSET),
            buffer.getInt(CountersFile.METADATA_LENGTH_OFFSET), buffer.getInt(CountersFile.VALUES_LENGTH_OFFSET),
            buffer.getLong(CountersFile.PID_OFFSET), buffer.getLong(CountersFile.START_TIME_OFFSET));
    }

    /**
     * @param directory a counters directory
     * @return its counters files ({@code overlap-*.counters}), sorted by name; empty if the directory does not exist
     * @throws IOException if the directory cannot be listed
     */
    public static List<Path> list(final Path directory) throws IOException {
        final List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return files;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory,
            CountersFile.PREFIX + "*" + CountersFile.SUFFIX)) {
            for (final Path p : stream) {
                files.add(p);
            }
        }
        files.sort(null);
        return files;
    }

    /**
     * Maps a counters file read-only and checks its header.
     *
     * @param file the file
     * @return a reader
     * @throws CountersFileException naming the file: missing, unreadable, truncated, not made yet, another magic or
     *                               version, or lengths that do not fit a {@code CountersManager}
     */
    public static CountersFileReader open(final Path file) throws CountersFileException {
        final long size;
        try {
            size = Files.size(file);
        } catch (final NoSuchFileException e) {
            throw new CountersFileException(file, "no such file", e);
        } catch (final IOException e) {
            throw new CountersFileException(file, "cannot read it: " + e, e);
        }
        if (size < CountersFile.HEADER_LENGTH) {
            throw new CountersFileException(file, size == 0 ? "empty (being created, or truncated)"
                : "truncated: " + size + " bytes, shorter than the " + CountersFile.HEADER_LENGTH + "-byte header");
        }
        final MappedByteBuffer mapped;
        try {
            mapped = IoUtil.mapExistingFile(file.toFile(), FileChannel.MapMode.READ_ONLY, "counters", 0, size);
        } catch (final RuntimeException e) {
            throw new CountersFileException(file, "cannot map it: " + e.getMessage(), e);
        }
        final UnsafeBuffer whole = new UnsafeBuffer(mapped);
        final Header header;
        try {
            header = readHeader(whole);
        } catch (final IllegalArgumentException e) {
            throw new CountersFileException(file, e.getMessage(), e);
        }
        if (header == null) {
            throw new CountersFileException(file, "not ready: its owner has not finished writing the header");
        }
        if (header.version() != CountersFile.VERSION) {
            throw new CountersFileException(file, "layout version " + header.version() + ", this reader knows "
                + CountersFile.VERSION);
        }
        final int meta = header.metaDataLength();
        final int values = header.valuesLength();
        if (header.headerLength() != CountersFile.HEADER_LENGTH || meta <= 0 || values <= 0
            || meta % CountersReader.METADATA_LENGTH != 0 || values % CountersReader.COUNTER_LENGTH != 0
            || meta / CountersReader.METADATA_LENGTH != values / CountersReader.COUNTER_LENGTH) {
            throw new CountersFileException(file, "corrupt header: header length " + header.headerLength()
                + ", metadata " + meta + " bytes, values " + values + " bytes");
        }
        if (size < header.fileLength()) {
            throw new CountersFileException(file, "truncated: " + size + " bytes, the header says "
                + header.fileLength());
        }
        final CountersReader counters = new CountersReader(
            new UnsafeBuffer(whole, CountersFile.HEADER_LENGTH, meta),
            new UnsafeBuffer(whole, CountersFile.HEADER_LENGTH + meta, values));
        return new CountersFileReader(file, header, counters);
    }

    /** @return the file */
    public Path path() {
        return path;
    }

    /** @return its header */
    public Header header() {
        return header;
    }

    /** @return the owner's pid */
    public long pid() {
        return header.pid();
    }

    /**
     * @return true if the owner runs: a live process with the header's pid that started when the header says (within
     *         a second; a platform that does not tell start times counts a live pid as the owner)
     */
    public boolean isOwnerAlive() {
        return ProcessLiveness.isAlive(header.pid(), header.startTimeMillis());
    }

    /** @return an Agrona reader over the file's counters */
    public CountersReader counters() {
        return counters;
    }

    @Override
    public String toString() {
        return "CountersFileReader{" + path + ", pid " + header.pid() + "}";
    }
}
