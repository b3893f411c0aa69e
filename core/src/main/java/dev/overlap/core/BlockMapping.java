package dev.overlap.core;

/**
 * Which bytes of a tracked region each block of a kernel writes (PROACT's {@code proact_ds.mapping}). A
 * {@link ChunkTracker} evaluates the mapping once, at build time, to count the writers of every chunk; nothing of
 * it runs on the hot path. Implementations must be deterministic. Ready-made mappings: {@link #oneToOne},
 * {@link #strided}, {@link #stencil}; anything else is a custom lambda.
 */
@FunctionalInterface
public interface BlockMapping {
    /** Receives the byte ranges one block writes. */
    @FunctionalInterface
    interface RangeSink {
        /**
         * @param start first byte written
         * @param end one past the last byte written
         */
        void range(long start, long end);
    }

    /**
     * Reports every byte range {@code [start, end)} of the region that {@code block} writes.
     *
     * @param block       block index, 0..gridSize-1
     * @param gridSize    blocks in the kernel
     * @param regionBytes size of the tracked region
     * @param sink        receives the ranges (any order, may overlap)
     */
    void ranges(int block, int gridSize, long regionBytes, RangeSink sink);

    /**
     * Block {@code b} writes {@code [b*bytesPerBlock, (b+1)*bytesPerBlock)}, clipped to the region (the last block
     * may write less).
     *
     * @param bytesPerBlock bytes each block writes, > 0
     * @return the mapping
     */
    static BlockMapping oneToOne(final long bytesPerBlock) {
        positive("bytesPerBlock", bytesPerBlock);
        return (block, grid, region, sink) -> {
            final long start = block * bytesPerBlock;
            if (start < region) {
                sink.range(start, Math.min(region, start + bytesPerBlock));
            }
        };
    }

    /**
     * Grid-stride: the region is cut into tiles of {@code tileBytes}; block {@code b} writes tiles
     * {@code b, b+gridSize, b+2*gridSize, ...}.
     *
     * @param tileBytes bytes in a tile, > 0
     * @return the mapping
     */
    static BlockMapping strided(final long tileBytes) {
        positive("tileBytes", tileBytes);
        return (block, grid, region, sink) -> {
            for (long start = block * tileBytes; start < region; start += grid * tileBytes) {
                sink.range(start, Math.min(region, start + tileBytes));
            }
        };
    }

    /**
     * Stencil with halo: block {@code b} writes its own range {@code [b*bytesPerBlock, (b+1)*bytesPerBlock)} widened
     * by {@code haloBytes} on each side (its neighbours' boundary cells), clipped to the region.
     *
     * @param bytesPerBlock bytes each block owns, > 0
     * @param haloBytes bytes written past each end of a block's own range, >= 0
     * @return the mapping
     */
    static BlockMapping stencil(final long bytesPerBlock, final long haloBytes) {
        positive("bytesPerBlock", bytesPerBlock);
        if (haloBytes < 0) {
            throw new IllegalArgumentException("haloBytes must be >= 0, was " + haloBytes);
        }
        return (block, grid, region, sink) -> {
            final long start = Math.max(0, block * bytesPerBlock - haloBytes);
            final long end = Math.min(region, (block + 1) * bytesPerBlock + haloBytes);
            if (start < end) {
                sink.range(start, end);
            }
        };
    }

    private static void positive(final String what, final long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be > 0, was " + value);
        }
    }
}
