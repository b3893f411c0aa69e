package dev.overlap.core;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.Objects;

/**
 * PROACT readiness tracking: a region is cut into chunks; each chunk has an atomic counter, and each chunk knows
 * how many blocks write it (from a {@link BlockMapping}, evaluated once at build). When a block finishes it calls
 * {@link #blockDone(int)}, which bumps the counter of every chunk the block wrote; the bump that completes a chunk
 * fires the {@link ChunkReadyListener} for it — exactly once per chunk per epoch.
 *
 * <p><b>Counting up, re-arming in O(1).</b> Counters are never reset. In epoch {@code e} (0, 1, 2...) a chunk with
 * {@code w} writers is ready when its counter reaches {@code (e+1)*w}; {@link #rearm()} just increments the
 * epoch. This needs each epoch's completions of a chunk to finish before the next epoch's start, which stream
 * order gives (the next iteration's kernel is launched after this one completed); {@code rearm()} checks it.
 * A completion past the target (a block reported twice) throws instead of firing twice.
 *
 * <p><b>Memory ordering.</b> Each bump is a volatile {@code getAndAdd} (release for the block's writes, acquire
 * of every earlier bump), so the thread whose bump completes a chunk — and runs the listener — sees every write
 * of every writer block. {@link #isReady(int)} is an acquire read for pollers and has the same guarantee.
 *
 * <p><b>Layout.</b> Counters live off-heap, one per {@code counterStride} bytes (64 by default, so blocks finishing
 * adjacent chunks do not false-share; 8 packs them densely). Thread-safety: {@code blockDone}, {@code isReady},
 * {@code readyChunks} from any thread; {@code rearm} from the host between iterations.
 *
 * <p><b>Lifetime.</b> After {@link #close()} every method that reads or bumps a counter throws
 * {@link IllegalStateException}. The counters' memory is not freed under a block that may still be running: it goes
 * with the tracker when the garbage collector collects it (a direct buffer's cleaner), so a block that raced with the
 * close bumps live memory, never freed memory.
 */
public final class ChunkTracker implements AutoCloseable {
    private final long regionBytes;
    private final long chunkBytes;
    private final int chunks;
    private final int gridSize;
    private final int stride;
    /** writers[c]: blocks that write chunk c. */
    private final int[] writers;
    /** CSR: the chunks of block b are blockChunks[blockStart[b] .. blockStart[b+1]). */
    private final int[] blockStart;
    private final int[] blockChunks;
    private final ChunkReadyListener listener;
    private final MemoryBacking.Allocation counterMemory;
    private final AtomicBuffer counters;
    private final int readyIndex;
    private volatile long epoch;
    /** Set by close(); read plainly by the hot path (a racing block is safe anyway, see the class comment). */
    private boolean closed;

    private ChunkTracker(final Builder b) {
        this.regionBytes = b.regionBytes;
        this.chunkBytes = b.chunkBytes;
        this.gridSize = b.gridSize;
        this.stride = b.counterStride;
        this.listener = b.listener;
        final long chunkCount = (regionBytes + chunkBytes - 1) / chunkBytes;
        if (chunkCount > Integer.MAX_VALUE / 2 / stride) {
            throw new IllegalArgumentException("region of " + regionBytes + " bytes in chunks of " + chunkBytes
                + " bytes needs " + chunkCount + " counters: use larger chunks");
        }
        this.chunks = (int)chunkCount;
        this.writers = new int[chunks];
        this.blockStart = new int[gridSize + 1];
        int[] list = new int[Math.max(16, gridSize)];
        int size = 0;
        final long[] lastSeen = new long[chunks];
        Arrays.fill(lastSeen, -1);
        final ChunkCollector collector = new ChunkCollector(lastSeen);
        for (int block = 0; block < gridSize; block++) {
            blockStart[block] = size;
            collector.reset(block);
            b.mapping.ranges(block, gridSize, regionBytes, collector);
            for (int i = 0; i < collector.count; i++) {
                if (size == list.length) {
                    list = Arrays.copyOf(list, list.length * 2);
                }
                list[size++] = collector.found[i];
                writers[collector.found[i]]++;
            }
            Arrays.sort(list, blockStart[block], size);
        }
        blockStart[gridSize] = size;
        this.blockChunks = Arrays.copyOf(list, size);
        for (int c = 0; c < chunks; c++) {
            if (writers[c] == 0) {
                throw new IllegalArgumentException("chunk " + c + " [" + chunkOffset(c) + ", "
                    + (chunkOffset(c) + chunkLength(c)) + ") is written by no block: the mapping must cover the "
                    + "whole region of " + regionBytes + " bytes with " + gridSize + " blocks");
            }
        }
        AgronaAccess.require();
        this.readyIndex = chunks * stride;
        this.counterMemory = MemoryBacking.allocateDirectAligned(readyIndex + 128, 128);
        this.counters = new UnsafeBuffer(counterMemory.aligned);
    }

    /** Collects the distinct chunks of one block's ranges, validating them. */
    private final class ChunkCollector implements BlockMapping.RangeSink {
        private final long[] lastSeen;
        int[] found = new int[16];
        int count;
        int block;

        ChunkCollector(final long[] lastSeen) {
            this.lastSeen = lastSeen;
        }

        void reset(final int block) {
            this.block = block;
            count = 0;
        }

        @Override
        public void range(final long start, final long end) {
            if (start < 0 || end > regionBytes || start >= end) {
                throw new IllegalArgumentException("mapping gave block " + block + " the range [" + start + ", " + end
                    + "), which is empty or outside the region [0, " + regionBytes + ")");
            }
            for (long c = start / chunkBytes, last = (end - 1) / chunkBytes; c <= last; c++) {
                if (lastSeen[(int)c] != block) {
                    lastSeen[(int)c] = block;
                    if (count == found.length) {
                        found = Arrays.copyOf(found, count * 2);
                    }
                    found[count++] = (int)c;
                }
            }
        }
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reports that {@code block} has finished writing: bumps the counter of each chunk it wrote and fires the
     * listener for every chunk this completes. No allocation; one atomic per (block, chunk) pair.
     *
     * @param block the block that finished, 0..gridSize - 1
     * @throws IllegalStateException if a chunk gets more completions than it has writers in this epoch
     */
    public void blockDone(final int block) {
        Objects.checkIndex(block, gridSize);
        checkOpen();
        final long e = epoch;
        for (int i = blockStart[block], end = blockStart[block + 1]; i < end; i++) {
            final int chunk = blockChunks[i];
            final long target = (e + 1) * writers[chunk];
            final long now = counters.getAndAddLong(chunk * stride, 1) + 1;
            if (now == target) {
                counters.getAndAddLong(readyIndex, 1);
                listener.onChunkReady(chunk, e);
            } else if (now > target) {
                throw new IllegalStateException("chunk " + chunk + " got more than its " + writers[chunk]
                    + " block completions in epoch " + e + " (block " + block + " reported twice?)");
            }
        }
    }

    /**
     * @param kernel the producing kernel, not null
     * @return a kernel that runs {@code kernel}'s block and then {@link #blockDone(int)} for it
     */
    public Kernel track(final Kernel kernel) {
        Objects.requireNonNull(kernel, "kernel");
        return (ctx, block) -> {
            kernel.run(ctx, block);
            blockDone(block);
        };
    }

    /**
     * @param chunk a chunk index, 0..chunks - 1
     * @return true when chunk {@code chunk} is ready in the current epoch (acquire read)
     */
    public boolean isReady(final int chunk) {
        Objects.checkIndex(chunk, chunks);
        checkOpen();
        return counters.getLongAcquire(chunk * stride) >= (epoch + 1) * writers[chunk];
    }

    /** @return chunks that became ready in the current epoch */
    public int readyChunks() {
        checkOpen();
        return (int)(counters.getLongVolatile(readyIndex) - epoch * chunks);
    }

    /** @return true when every chunk is ready in the current epoch */
    public boolean allReady() {
        return readyChunks() == chunks;
    }

    /**
     * Starts the next epoch in O(1): every chunk becomes not-ready again. Call from the host between iterations.
     *
     * @throws IllegalStateException if some chunk of the current epoch is not ready yet
     */
    public void rearm() {
        checkOpen();
        final int ready = readyChunks();
        if (ready != chunks) {
            throw new IllegalStateException("rearm() in epoch " + epoch + " with only " + ready + " of " + chunks
                + " chunks ready: every writer block must complete first");
        }
        epoch = epoch + 1;
    }

    /** @return the current epoch (0 for the first iteration) */
    public long epoch() {
        return epoch;
    }

    /** @return number of chunks */
    public int chunkCount() {
        return chunks;
    }

    /** @return the configured chunk size in bytes */
    public long chunkBytes() {
        return chunkBytes;
    }

    /** @return the region size in bytes */
    public long regionBytes() {
        return regionBytes;
    }

    /** @return the grid size the tracker was built for */
    public int gridSize() {
        return gridSize;
    }

    /**
     * @param chunk a chunk index, 0..chunks - 1
     * @return first byte of chunk {@code chunk}
     */
    public long chunkOffset(final int chunk) {
        return Objects.checkIndex(chunk, chunks) * chunkBytes;
    }

    /**
     * @param chunk a chunk index, 0..chunks - 1
     * @return bytes in chunk {@code chunk} (the last one may be short)
     */
    public long chunkLength(final int chunk) {
        return Math.min(chunkBytes, regionBytes - chunkOffset(chunk));
    }

    /**
     * @param chunk a chunk index, 0..chunks - 1
     * @return how many blocks write chunk {@code chunk}
     */
    public int writers(final int chunk) {
        return writers[Objects.checkIndex(chunk, chunks)];
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("ChunkTracker of " + chunks + " chunks is closed");
        }
    }

    /**
     * Closes the tracker; idempotent. Every later {@code blockDone}, {@code isReady}, {@code readyChunks} and
     * {@code rearm} throws {@link IllegalStateException}; the counters' memory goes with the tracker object (see the
     * class comment).
     */
    @Override
    public synchronized void close() {
        closed = true;
    }

    /** Validating builder; not thread-safe. Region, chunk size, grid size, mapping and listener are required. */
    public static final class Builder {
        private long regionBytes = -1;
        private long chunkBytes = -1;
        private int gridSize = -1;
        private int counterStride = 64;
        private BlockMapping mapping;
        private ChunkReadyListener listener;

        private Builder() {
        }

        /**
         * @param bytes size of the tracked region, > 0
         * @return this builder
         */
        public Builder regionBytes(final long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("regionBytes must be > 0, was " + bytes);
            }
            this.regionBytes = bytes;
            return this;
        }

        /**
         * @param bytes chunk size, > 0 (need not divide the region: the last chunk is short)
         * @return this builder
         */
        public Builder chunkBytes(final long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("chunkBytes must be > 0, was " + bytes);
            }
            this.chunkBytes = bytes;
            return this;
        }

        /**
         * @param blocks blocks of the producing kernel, > 0
         * @return this builder
         */
        public Builder gridSize(final int blocks) {
            if (blocks <= 0) {
                throw new IllegalArgumentException("gridSize must be > 0, was " + blocks);
            }
            this.gridSize = blocks;
            return this;
        }

        /**
         * @param bytes distance between counters: 8 (dense), 64 (default, one per cache line) or 128
         * @return this builder
         */
        public Builder counterStride(final int bytes) {
            if (bytes != 8 && bytes != 64 && bytes != 128) {
                throw new IllegalArgumentException("counterStride must be 8, 64 or 128, was " + bytes);
            }
            this.counterStride = bytes;
            return this;
        }

        /**
         * @param mapping which bytes each block writes
         * @return this builder
         */
        public Builder mapping(final BlockMapping mapping) {
            this.mapping = Objects.requireNonNull(mapping, "mapping");
            return this;
        }

        /**
         * @param listener told when each chunk becomes ready
         * @return this builder
         */
        public Builder onReady(final ChunkReadyListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** @return the tracker, in epoch 0 */
        public ChunkTracker build() {
            if (regionBytes < 0 || chunkBytes < 0 || gridSize < 0 || mapping == null || listener == null) {
                throw new IllegalStateException("ChunkTracker needs regionBytes, chunkBytes, gridSize, mapping and "
                    + "onReady; missing:" + (regionBytes < 0 ? " regionBytes" : "") + (chunkBytes < 0 ? " chunkBytes" : "")
                    + (gridSize < 0 ? " gridSize" : "") + (mapping == null ? " mapping" : "")
                    + (listener == null ? " onReady" : ""));
            }
            return new ChunkTracker(this);
        }
    }
}
