package dev.overlap.replication;

import java.util.Objects;

/**
 * One point of the PROACT design space: transfer mode, chunk size and transfer threads. Immutable value;
 * thread-safe.
 */
public final class TransferConfig {
    /** What a region uses when no profile says better: triggered, 64 KiB chunks, one transfer thread. */
    public static final TransferConfig DEFAULT = new TransferConfig(TransferMode.TRIGGERED, 64 << 10, 1);

    private final TransferMode mode;
    private final int chunkBytes;
    private final int transferThreads;

    /**
     * @param mode            transfer mode
     * @param chunkBytes      chunk size (multiple of 8)
     * @param transferThreads transfer threads (0..64)
     */
    public TransferConfig(final TransferMode mode, final int chunkBytes, final int transferThreads) {
        Objects.requireNonNull(mode, "mode");
        if (chunkBytes < 8 || (chunkBytes & 7) != 0) {
            throw new IllegalArgumentException("chunkBytes must be a positive multiple of 8, was " + chunkBytes);
        }
        if (transferThreads < 0 || transferThreads > 64) {
            throw new IllegalArgumentException("transferThreads must be in 0..64, was " + transferThreads);
        }
        if (mode == TransferMode.POLLING && transferThreads == 0) {
            throw new IllegalArgumentException("POLLING needs at least one transfer thread");
        }
        this.mode = mode;
        this.chunkBytes = chunkBytes;
        this.transferThreads = transferThreads;
    }

    /** @return the mode */
    public TransferMode mode() {
        return mode;
    }

    /** @return chunk size in bytes */
    public int chunkBytes() {
        return chunkBytes;
    }

    /** @return transfer threads */
    public int transferThreads() {
        return transferThreads;
    }

    /**
     * @param builder the region builder to configure
     * @return {@code builder} configured with this point
     */
    public ReplicatedRegion.Builder applyTo(final ReplicatedRegion.Builder builder) {
        return builder.mode(mode).chunkBytes(chunkBytes).transferThreads(transferThreads);
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TransferConfig && ((TransferConfig)o).mode == mode
            && ((TransferConfig)o).chunkBytes == chunkBytes && ((TransferConfig)o).transferThreads == transferThreads;
    }

    @Override
    public int hashCode() {
        return (mode.hashCode() * 31 + chunkBytes) * 31 + transferThreads;
    }

    @Override
    public String toString() {
        return mode + "/" + (chunkBytes >= 1 << 20 && chunkBytes % (1 << 20) == 0 ? (chunkBytes >> 20) + "MiB"
            : chunkBytes % 1024 == 0 ? (chunkBytes >> 10) + "KiB" : chunkBytes + "B") + "/" + transferThreads + "t";
    }
}
