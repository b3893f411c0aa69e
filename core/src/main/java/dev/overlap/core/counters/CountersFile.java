package dev.overlap.core.counters;

import dev.overlap.core.ProcessLiveness;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The process's counters file, Aeron-CnC-style: a memory-mapped file holding a small header and the metadata and
 * values buffers of an Agrona {@code CountersManager}, so that another process ({@link CountersFileReader},
 * {@code overlap stat}) can read the counters of a running one. One file per process and directory, named
 * {@code overlap-<pid>.counters}; the owner deletes it when it closes ({@link #delete()}).
 *
 * <pre>
 * offset  size  field
 *   0     8     magic {@value #MAGIC_TEXT} (ASCII, little-endian long {@link #MAGIC}); written last, release store
 *   8     4     version ({@value #VERSION})
 *  12     4     header length ({@value #HEADER_LENGTH})
 *  16     4     metadata buffer length (a multiple of CountersReader.METADATA_LENGTH, 512 bytes per counter)
 *  20     4     values buffer length (metadata length / 4: CountersReader.COUNTER_LENGTH, 128 bytes per counter)
 *  24     8     pid of the owning process
 *  32     8     the owning process's start time, ms since the epoch (tells a live owner from a reused pid)
 *  40    88     reserved (zero)
 * 128           metadata buffer, then the values buffer
 * </pre>
 *
 * <p><b>Publication.</b> The header's fields are plain stores and the magic a release store after them
 * ({@link #writeHeader}); a reader loads the magic with acquire semantics first ({@link CountersFileReader#readHeader})
 * and finds either no magic yet (the file is being made) or every field written: never a half-made header. A new
 * file's pages are zero, so the buffers are empty counters before the magic appears.
 *
 * <p><b>Lifetime.</b> The mapping is never unmapped explicitly: it goes when the garbage collector finds no buffer
 * over it, so a counter read or write racing the owner's close never touches unmapped memory. {@link #delete()}
 * removes the name, so that readers stop finding it; a reader that had mapped it keeps reading the last values.
 *
 * <p>Thread-safety: immutable after {@link #create}; {@link #delete()} is idempotent and may race itself.
 */
public final class CountersFile {
    /** The magic as text. */
    public static final String MAGIC_TEXT = "OVLPCNTR";
    /** The magic as the little-endian long the file holds. */
    public static final long MAGIC = 0x52544E43504C564FL;
    /** The layout version this class writes. */
    public static final int VERSION = 1;
    /** Bytes of the header, before the metadata buffer. */
    public static final int HEADER_LENGTH = 128;
    /** Offset of the magic (long). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version (int). */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the header length (int). */
    public static final int HEADER_LENGTH_OFFSET = 12;
    /** Offset of the metadata buffer's length (int). */
    public static final int METADATA_LENGTH_OFFSET = 16;
    /** Offset of the values buffer's length (int). */
    public static final int VALUES_LENGTH_OFFSET = 20;
    /** Offset of the owner's pid (long). */
    public static final int PID_OFFSET = 24;
    /** Offset of the owner's start time, ms since the epoch (long). */
    public static final int START_TIME_OFFSET = 32;
    /** File names start with this. */
    public static final String PREFIX = "overlap-";
    /** File names end with this. */
    public static final String SUFFIX = ".counters";
    /**
     * System property: the directory of the counters file that a {@code Mesh} publishes to when its builder was not
     * told otherwise; the word {@code default} means {@link #defaultDirectory()}.
     */
    public static final String DIRECTORY_PROPERTY = "overlap.counters.dir";
    /** System property: how many counters a new counters file holds (default {@value #DEFAULT_CAPACITY}). */
    public static final String CAPACITY_PROPERTY = "overlap.counters.capacity";
    /** Counters a new file holds by default (640 bytes each: a 1.3 MiB file). */
    public static final int DEFAULT_CAPACITY = 2048;
    /** Most counters a file may hold. */
    public static final int MAX_CAPACITY = 1 << 20;

    private static final long START_TIME = ProcessLiveness.currentStartMillis();

    private final Path path;
    private final AtomicBuffer metaData;
    private final AtomicBuffer values;

    private CountersFile(final Path path, final AtomicBuffer metaData, final AtomicBuffer values) {
        this.path = path;
        this.metaData = metaData;
        this.values = values;
    }

    /**
     * @return {@code /dev/shm/overlap-<user>} where {@code /dev/shm} exists (memory, no disk writes), else
     *         {@code <java.io.tmpdir>/overlap-<user>}
     */
    public static Path defaultDirectory() {
        final String dir = "overlap-" + System.getProperty("user.name", "default");
        final Path shm = Paths.get("/dev/shm");
        return Files.isDirectory(shm) ? shm.resolve(dir) : Paths.get(System.getProperty("java.io.tmpdir"), dir);
    }

    /**
     * @param directory a directory
     * @param pid       a process id
     * @return the path of that process's counters file in {@code directory}
     */
    public static Path fileOf(final Path directory, final long pid) {
        return directory.resolve(PREFIX + pid + SUFFIX);
    }

    /**
     * Creates this process's counters file in {@code directory} (creating the directory too), replacing a stale file
     * of an earlier process that had the same pid.
     *
     * @param directory where
     * @param counters  how many counters it holds, 1..{@value #MAX_CAPACITY}
     * @return the file, its header published
     * @throws UncheckedIOException naming the file when it cannot be made
     */
    public static CountersFile create(final Path directory, final int counters) {
        if (counters < 1 || counters > MAX_CAPACITY) {
            throw new IllegalArgumentException("counters file capacity must be in 1.." + MAX_CAPACITY + " counters, was "
                + counters);
        }
        final long pid = ProcessHandle.current().pid();
        final Path path = fileOf(directory, pid);
        final int metaDataLength = counters * CountersReader.METADATA_LENGTH;
        final int valuesLength = counters * CountersReader.COUNTER_LENGTH;
        final MappedByteBuffer mapped;
        try {
            Files.createDirectories(directory);
            Files.deleteIfExists(path);
            mapped = IoUtil.mapNewFile(path.toFile(), (long)HEADER_LENGTH + metaDataLength + valuesLength, false);
        } catch (final IOException | UncheckedIOException | IllegalStateException e) {
            throw new UncheckedIOException(path + ": cannot create the counters file: " + e.getMessage(),
                e instanceof IOException ? (IOException)e : new IOException(e));
        }
        final UnsafeBuffer whole = new UnsafeBuffer(mapped);
        final CountersFile file = new CountersFile(path, new UnsafeBuffer(whole, HEADER_LENGTH, metaDataLength),
            new UnsafeBuffer(whole, HEADER_LENGTH + metaDataLength, valuesLength));
        writeHeader(whole, metaDataLength, valuesLength, pid, START_TIME);
        return file;
    }

    /**
     * Writes a counters file header into {@code buffer}: every field with plain stores, then the magic with a release
     * store, so that a reader that sees the magic ({@link CountersFileReader#readHeader}) sees every field.
     *
     * @param buffer         at least {@value #HEADER_LENGTH} bytes, the magic still zero
     * @param metaDataLength the metadata buffer's length
     * @param valuesLength   the values buffer's length
     * @param pid            the owner's pid
     * @param startTimeMs    the owner's start time
     */
    public static void writeHeader(final AtomicBuffer buffer, final int metaDataLength, final int valuesLength,
        final long pid, final long startTimeMs) {
        buffer.putInt(VERSION_OFFSET, VERSION);
        buffer.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        buffer.putInt(METADATA_LENGTH_OFFSET, metaDataLength);
        buffer.putInt(VALUES_LENGTH_OFFSET, valuesLength);
        buffer.putLong(PID_OFFSET, pid);
        buffer.putLong(START_TIME_OFFSET, startTimeMs);
        buffer.putLongRelease(MAGIC_OFFSET, MAGIC);
    }

    /** @return the file's path */
    public Path path() {
        return path;
    }

    /** @return the metadata buffer (for a {@code CountersManager}) */
    public AtomicBuffer metaDataBuffer() {
        return metaData;
    }

    /** @return the values buffer (for a {@code CountersManager}) */
    public AtomicBuffer valuesBuffer() {
        return values;
    }

    /** @return this process's start time as the header records it, ms since the epoch */
    static long processStartTime() {
        return START_TIME;
    }

    /**
     * Deletes the file (the mapping stays valid until the garbage collector takes it). Idempotent.
     *
     * @throws UncheckedIOException naming the file if it exists and cannot be deleted
     */
    public void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (final IOException e) {
            throw new UncheckedIOException(path + ": cannot delete the counters file: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "CountersFile{" + path + ", " + values.capacity() / CountersReader.COUNTER_LENGTH + " counters}";
    }
}
