package dev.overlap.core;

/**
 * A kernel launch failed: a block (discrete) or a worker's poll (persistent) threw. The message names the device,
 * the launch and the block or worker; {@link #getCause()} is what was thrown. Thrown by {@link KernelLaunch#join()}.
 */
public final class KernelFailedException extends RuntimeException {
    /** The device the launch ran on. */
    private final int device;
    /** The failing block index, or -1 for a persistent kernel or a launch that never ran. */
    private final int block;

    KernelFailedException(final String message, final int device, final int block, final Throwable cause) {
        super(message, cause);
        this.device = device;
        this.block = block;
    }

    /** @return the device the launch ran on */
    public int device() {
        return device;
    }

    /** @return the failing block index, or -1 for a persistent kernel or a launch that never ran */
    public int block() {
        return block;
    }
}
