package dev.overlap.core;

/**
 * The body of a discrete kernel: called once per block index {@code 0..gridSize-1}; blocks are handed out
 * dynamically to the device's workers (like a GPU block scheduler), so a block may run on any worker and blocks
 * run concurrently. Everything a block writes happens-before the launch's completion is observed
 * ({@link KernelLaunch#join()}).
 */
@FunctionalInterface
public interface Kernel {
    /**
     * @param ctx   the calling worker (device, worker index); valid only during the call
     * @param block the block index
     * @throws Exception fails the launch with the block index and this cause; the device stays usable
     */
    void run(WorkerContext ctx, int block) throws Exception;
}
