package dev.overlap.core;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * One job: the layout of a world's shared control segment, a small memory-mapped file every rank maps, and the
 * atomic operations on it. Every field that different processes write sits on a cache line of its own; a field has
 * one writer unless its method says it is updated atomically.
 *
 * <pre>
 * offset  field
 *      0  magic (long; written last by the creator, read first by the others), version (int), ranks (int)
 *     16  devices (int), memory per device (int), creator pid (long), creator start (epoch ms), created (epoch ms)
 *    128  failure: rank + 1 of the first failed rank (long: 0 none, -1 being recorded), reason length, reason (UTF-8)
 *    512  barrier: generation (high 44 bits) and ranks arrived at it (low 20 bits), one atomic word
 *   1024  one 128-byte block per rank: pid (long, claimed by CAS), start (epoch ms), state (int), heartbeat (epoch ms)
 *   LOG   the symmetric-allocation log: {@value #LOG_ENTRIES} entries of 32 bytes: sequence + 1 (long: 0 free,
 *         -1 being written), offset, bytes, rank that wrote it
 *   RED   reductions: two areas (by the parity of the reduction) of {@value #REDUCE_VALUES} longs per rank, each
 *         written only by its rank
 * </pre>
 *
 * <p>Thread- and process-safety: every method may be called by any thread of any rank; orderings are stated per
 * method. Values written by plain stores before a release store are visible to whoever acquires that store (the
 * mapped memory is the same physical memory in every process: the Java memory model's release/acquire carries over,
 * as it does for Agrona's and Aeron's IPC rings).
 */
final class WorldSegment {
    static final String FILE_NAME = "world.ctl";
    static final long MAGIC = 0x314c_4457_504c_564fL; // "OVLPWDL1", little-endian
    static final int VERSION = 1;

    static final int ABSENT = 0;
    static final int JOINING = 1;
    static final int READY = 2;
    static final int LEFT = 3;

    static final int REASON_MAX = 320;
    static final int LOG_ENTRIES = 1024;

    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = 8;
    private static final int RANKS_OFFSET = 12;
    private static final int DEVICES_OFFSET = 16;
    private static final int MEMORY_OFFSET = 20;
    private static final int CREATOR_PID_OFFSET = 24;
    private static final int CREATOR_START_OFFSET = 32;
    private static final int CREATED_OFFSET = 40;
    private static final int FAILED_OFFSET = 128;
    private static final int REASON_LENGTH_OFFSET = 136;
    private static final int REASON_OFFSET = 140;
    private static final int BARRIER_OFFSET = 512;
    private static final int COUNT_BITS = 20;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final int RANKS_BASE = 1024;
    private static final int RANK_BLOCK = 128;
    private static final int PID = 0;
    private static final int START = 8;
    private static final int STATE = 16;
    private static final int HEARTBEAT = 24;
    private static final int LOG_BASE = RANKS_BASE + World.MAX_RANKS * RANK_BLOCK;
    private static final int LOG_ENTRY = 32;
    /** Longs a rank contributes to one reduction. */
    static final int REDUCE_VALUES = 16;
    private static final int REDUCE_AREA = REDUCE_VALUES * 8;
    private static final int REDUCE_BASE = LOG_BASE + LOG_ENTRIES * LOG_ENTRY;
    static final int LENGTH = REDUCE_BASE + 2 * World.MAX_RANKS * REDUCE_AREA;

    private final File file;
    private final MappedByteBuffer mapped;
    private final AtomicBuffer buffer;
    private final int logBase;
    private final int logEntries;
    private final int reduceBase;
    private final int rankCapacity;

    private WorldSegment(final File file, final MappedByteBuffer mapped) {
        this.file = file;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.logBase = LOG_BASE;
        this.logEntries = LOG_ENTRIES;
        this.reduceBase = REDUCE_BASE;
        this.rankCapacity = World.MAX_RANKS;
    }

    /**
     * Over a caller's buffer, without a file (the jcstress tests, which need many small segments): the header, the
     * failure record, the barrier and {@code ranks} rank blocks at their usual offsets, then a log of
     * {@code logEntries} entries, then the reduction areas of {@code ranks} ranks.
     */
    WorldSegment(final AtomicBuffer buffer, final int ranks, final int logEntries) {
        this.file = null;
        this.mapped = null;
        this.buffer = buffer;
        this.logBase = RANKS_BASE + ranks * RANK_BLOCK;
        this.logEntries = logEntries;
        this.reduceBase = logBase + logEntries * LOG_ENTRY;
        this.rankCapacity = ranks;
        buffer.boundsCheck(0, length(ranks, logEntries));
    }

    /** @return bytes a caller's buffer needs for {@link #WorldSegment(AtomicBuffer, int, int)} */
    static int length(final int ranks, final int logEntries) {
        return RANKS_BASE + ranks * RANK_BLOCK + logEntries * LOG_ENTRY + 2 * ranks * REDUCE_AREA;
    }

    /**
     * Creates the segment: writes it whole into a temporary file and renames that into place, so no rank ever maps a
     * half-made segment.
     *
     * @return the new segment, mapped
     */
    static WorldSegment create(final Path directory, final int ranks, final int devices, final int memoryPerDevice,
        final long creatorPid, final long creatorStart) {
        final Path target = directory.resolve(FILE_NAME);
        final Path temp = directory.resolve(FILE_NAME + ".tmp-" + creatorPid);
        final MappedByteBuffer mapped = IoUtil.mapNewFile(temp.toFile(), LENGTH, true);
        final WorldSegment s = new WorldSegment(target.toFile(), mapped);
        s.initialise(ranks, devices, memoryPerDevice, creatorPid, creatorStart, System.currentTimeMillis());
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (final IOException e) {
            IoUtil.unmap(mapped);
            IoUtil.delete(temp.toFile(), true);
            throw new UncheckedIOException("cannot create the world's control segment " + target, e);
        }
        return s;
    }

    /** Writes the header; the magic last, with a release store, so a reader that sees it sees the rest. */
    void initialise(final int ranks, final int devices, final int memoryPerDevice, final long creatorPid,
        final long creatorStart, final long createdMillis) {
        buffer.putInt(VERSION_OFFSET, VERSION);
        buffer.putInt(RANKS_OFFSET, ranks);
        buffer.putInt(DEVICES_OFFSET, devices);
        buffer.putInt(MEMORY_OFFSET, memoryPerDevice);
        buffer.putLong(CREATOR_PID_OFFSET, creatorPid);
        buffer.putLong(CREATOR_START_OFFSET, creatorStart);
        buffer.putLong(CREATED_OFFSET, createdMillis);
        buffer.putLongRelease(MAGIC_OFFSET, MAGIC);
    }

    /**
     * @return the existing segment of {@code directory}, mapped, or null if there is none yet or it is not complete
     * @throws IllegalStateException naming the file if it is not a control segment of this version
     */
    static WorldSegment openIfPresent(final Path directory) {
        final File f = directory.resolve(FILE_NAME).toFile();
        if (!f.isFile()) {
            return null;
        }
        if (f.length() != LENGTH) {
            throw new IllegalStateException(f + " is not an Overlap world control segment (" + f.length()
                + " bytes, expected " + LENGTH + ")");
        }
        final MappedByteBuffer mapped;
        try {
            mapped = IoUtil.mapExistingFile(f, FILE_NAME);
        } catch (final IllegalStateException e) { // Agrona wraps the IOException of a file removed meanwhile
            return null;
        }
        final WorldSegment s = new WorldSegment(f, mapped);
        final long magic = s.buffer.getLongAcquire(MAGIC_OFFSET);
        final int version = s.buffer.getInt(VERSION_OFFSET);
        if (magic != MAGIC || version != VERSION) {
            s.unmap();
            throw new IllegalStateException(f + " is not an Overlap world control segment of version " + VERSION
                + " (magic " + Long.toHexString(magic) + ", version " + version + ")");
        }
        return s;
    }

    void unmap() {
        if (mapped != null) {
            IoUtil.unmap(mapped);
        }
    }

    File file() {
        return file;
    }

    int ranks() {
        return buffer.getInt(RANKS_OFFSET);
    }

    int devices() {
        return buffer.getInt(DEVICES_OFFSET);
    }

    int memoryPerDevice() {
        return buffer.getInt(MEMORY_OFFSET);
    }

    long creatorPid() {
        return buffer.getLong(CREATOR_PID_OFFSET);
    }

    long creatorStart() {
        return buffer.getLong(CREATOR_START_OFFSET);
    }

    // ------------------------------------------------------------------------------------------------- ranks

    private static int block(final int rank) {
        return RANKS_BASE + rank * RANK_BLOCK;
    }

    /**
     * Claims {@code rank}'s block for a process (CAS on the pid word, then the start time and the heartbeat, then the
     * state {@link #JOINING} with a release store).
     *
     * @return 0 if claimed, else the pid that holds the block
     */
    long claim(final int rank, final long pid, final long start, final long nowMillis) {
        final int b = block(rank);
        if (!buffer.compareAndSetLong(b + PID, 0, pid)) {
            return buffer.getLongVolatile(b + PID);
        }
        buffer.putLong(b + START, start);
        buffer.putLongRelease(b + HEARTBEAT, nowMillis);
        buffer.putIntRelease(b + STATE, JOINING);
        return 0;
    }

    long pid(final int rank) {
        return buffer.getLongVolatile(block(rank) + PID);
    }

    /** @return the rank's process start time (read after acquiring its state) */
    long start(final int rank) {
        return buffer.getLong(block(rank) + START);
    }

    int state(final int rank) {
        return buffer.getIntAcquire(block(rank) + STATE);
    }

    /** Release store: what the rank did before (its device files, for {@link #READY}) is visible to an acquirer. */
    void state(final int rank, final int state) {
        buffer.putIntRelease(block(rank) + STATE, state);
    }

    long heartbeat(final int rank) {
        return buffer.getLongAcquire(block(rank) + HEARTBEAT);
    }

    void heartbeat(final int rank, final long nowMillis) {
        buffer.putLongRelease(block(rank) + HEARTBEAT, nowMillis);
    }

    /** Marks {@code rank} as left with a volatile store (a full fence: see {@link World}'s leave). */
    void leave(final int rank) {
        buffer.putIntVolatile(block(rank) + STATE, LEFT);
    }

    int stateVolatile(final int rank) {
        return buffer.getIntVolatile(block(rank) + STATE);
    }

    // ------------------------------------------------------------------------------------------------ failure

    /**
     * Records the first failure: the first caller wins (CAS from 0 to -1, the reason written, then the rank with a
     * release store); later calls change nothing.
     *
     * @return true if this call recorded it
     */
    boolean recordFailure(final int rank, final String reason) {
        if (!buffer.compareAndSetLong(FAILED_OFFSET, 0, -1)) {
            return false;
        }
        final byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        final int length = Math.min(text.length, REASON_MAX);
        buffer.putBytes(REASON_OFFSET, text, 0, length);
        buffer.putInt(REASON_LENGTH_OFFSET, length);
        buffer.putLongRelease(FAILED_OFFSET, rank + 1L);
        return true;
    }

    /** @return the failed rank, or -1 if none is recorded (yet: one being recorded reads as none) */
    int failedRank() {
        final long v = buffer.getLongAcquire(FAILED_OFFSET);
        return v > 0 ? (int)(v - 1) : -1;
    }

    /** @return the recorded reason; call only after {@link #failedRank()} returned a rank */
    String failureReason() {
        final int length = Math.min(Math.max(buffer.getInt(REASON_LENGTH_OFFSET), 0), REASON_MAX);
        final byte[] text = new byte[length];
        buffer.getBytes(REASON_OFFSET, text);
        return new String(text, StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------------------------------------ barrier

    /**
     * @return the barrier word: the generation in the high bits, the ranks arrived at the current barrier in the low
     *         {@value #COUNT_BITS} (acquire: what the ranks did before the barrier completed is visible to a rank that
     *         sees the new generation)
     */
    long barrierWord() {
        return buffer.getLongAcquire(BARRIER_OFFSET);
    }

    static long generationOf(final long word) {
        return word >>> COUNT_BITS;
    }

    static int arrivedOf(final long word) {
        return (int)(word & COUNT_MASK);
    }

    /**
     * Arrives at the current barrier (one atomic add). The last of {@code ranks} arrivals starts the next generation
     * with a release store of (generation + 1, 0 arrived): nobody else writes the word between the two, since every
     * rank has arrived and a completed barrier cannot be withdrawn from. Generation and count share one word, so a
     * withdrawal can never take back an arrival of a later barrier (no ABA).
     *
     * @return the generation arrived at; the barrier is complete once {@link #barrierWord()} shows a later one
     */
    long arrive(final int ranks) {
        final long before = buffer.getAndAddLong(BARRIER_OFFSET, 1);
        final long generation = generationOf(before);
        if (arrivedOf(before) + 1 == ranks) {
            buffer.putLongRelease(BARRIER_OFFSET, (generation + 1) << COUNT_BITS);
        }
        return generation;
    }

    /**
     * Takes back an arrival at the barrier of {@code generation} that has not completed (for a wait that gives up).
     *
     * @return true if the arrival was taken back; false if the barrier completed meanwhile (the arrival counted)
     */
    boolean withdraw(final long generation, final int ranks) {
        while (true) {
            final long word = buffer.getLongVolatile(BARRIER_OFFSET);
            final int arrived = arrivedOf(word);
            if (generationOf(word) != generation || arrived >= ranks) {
                return false; // complete, or being completed by the last arriver's store
            }
            if (buffer.compareAndSetLong(BARRIER_OFFSET, word, word - 1)) {
                return true;
            }
            Thread.onSpinWait();
        }
    }

    // ------------------------------------------------------------------------------------------------ reduction

    /** Plain store of {@code rank}'s {@code i}-th value of the reduction of parity {@code parity}. */
    void putReduceValue(final int parity, final int rank, final int i, final long value) {
        buffer.putLong(reduceArea(parity, rank) + i * 8, value);
    }

    /** Plain load (the barrier after the stores orders it). */
    long reduceValue(final int parity, final int rank, final int i) {
        return buffer.getLong(reduceArea(parity, rank) + i * 8);
    }

    private int reduceArea(final int parity, final int rank) {
        return reduceBase + (parity * rankCapacity + rank) * REDUCE_AREA;
    }

    // ------------------------------------------------------------------------------------- symmetric allocation

    /**
     * Checks that the {@code seq}-th symmetric allocation (counted from 1 per mesh) is the same on every rank: the
     * first rank to get there writes its offset and size, the others compare.
     *
     * @return null if it matches (or the entry was since reused by a much later allocation), else a description of
     *         the entry another rank wrote
     */
    String checkSymmetric(final long seq, final long offset, final long bytes, final int rank) {
        final int e = logBase + (int)((seq - 1) % logEntries) * LOG_ENTRY;
        while (true) {
            final long tag = buffer.getLongAcquire(e);
            if (tag == seq) {
                final long o = buffer.getLong(e + 8);
                final long b = buffer.getLong(e + 16);
                if (o == offset && b == bytes) {
                    return null;
                }
                return "rank " + buffer.getInt(e + 24) + " made it " + b + " bytes at offset " + o;
            }
            if (tag > seq) {
                return null; // this rank lags by more than the log holds: nothing left to compare with
            }
            if (tag != -1 && buffer.compareAndSetLong(e, tag, -1)) {
                buffer.putLong(e + 8, offset);
                buffer.putLong(e + 16, bytes);
                buffer.putInt(e + 24, rank);
                buffer.putLongRelease(e, seq);
                return null;
            }
            Thread.onSpinWait(); // another rank is writing the entry: a few stores
        }
    }
}
