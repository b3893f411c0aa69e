package dev.overlap.core;

/**
 * Told when a chunk of a tracked region becomes ready: the last of its writer blocks has completed. Called exactly
 * once per chunk per epoch, on the worker thread whose completion made the chunk ready; every write any writer
 * block made before its completion happens-before the call. Keep it short (hand work to another thread, set a
 * bit): it runs inside that worker's block.
 */
@FunctionalInterface
public interface ChunkReadyListener {
    /**
     * @param chunk the chunk index; its bytes are {@link ChunkTracker#chunkOffset} .. + {@link ChunkTracker#chunkLength}
     * @param epoch the tracker's epoch (iteration) the chunk became ready in
     */
    void onChunkReady(int chunk, long epoch);
}
