package dev.overlap.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * How a {@link Mesh} spans several JVM processes on one host: the job's directory (where the shared control segment
 * and every device's memory file live, ideally on a memory file system such as {@code /dev/shm}), how many processes
 * (ranks) take part, and which one this is. Each rank builds its mesh with the same device count and memory size
 * and its own rank; rank {@code r} owns devices {@code [r * d / ranks, (r + 1) * d / ranks)} (runs its workers,
 * creates the memory) and maps every other device's memory, so that one-sided operations reach all of them with the
 * same code as in one process. See {@link World} for what the ranks share.
 *
 * <pre>{@code
 * WorldConfig world = WorldConfig.sharedMemory(Path.of("/dev/shm/overlap-job42"), 2, rank).build();
 * try (Mesh mesh = Mesh.builder().devices(4).world(world).build()) {   // rank 0 runs devices 0-1, rank 1 devices 2-3
 *     for (Device d : mesh.localDevices()) { d.launch(...); }
 *     mesh.world().barrier();
 * }
 * }</pre>
 *
 * <p>Immutable; thread-safe. The builder validates every value and is not thread-safe.
 */
public final class WorldConfig {
    private final Path directory;
    private final int ranks;
    private final int rank;
    private final long joinTimeoutNanos;
    private final long peerTimeoutNanos;
    private final Consumer<PeerFailedException> onPeerFailure;

    private WorldConfig(final Builder b) {
        this.directory = b.directory;
        this.ranks = b.ranks;
        this.rank = b.rank;
        this.joinTimeoutNanos = b.joinTimeoutNanos;
        this.peerTimeoutNanos = b.peerTimeoutNanos;
        this.onPeerFailure = b.onPeerFailure;
    }

    /**
     * @param directory the job's directory: created if missing (its parent must exist); every rank of the job names
     *                  the same one, and no other job may use it while this one runs
     * @param ranks     processes taking part, 1..{@value World#MAX_RANKS}
     * @param rank      this process's rank, 0..ranks-1
     * @return a builder with the defaults (join within 60 s, a peer failed after 5 s without a heartbeat)
     */
    public static Builder sharedMemory(final Path directory, final int ranks, final int rank) {
        return new Builder(directory, ranks, rank);
    }

    /** @return the job's directory */
    public Path directory() {
        return directory;
    }

    /** @return how many processes take part */
    public int ranks() {
        return ranks;
    }

    /** @return this process's rank */
    public int rank() {
        return rank;
    }

    /** @return how long the join waits for every rank to arrive, in nanoseconds */
    public long joinTimeoutNanos() {
        return joinTimeoutNanos;
    }

    /** @return how long a live process may go without a heartbeat before it counts as failed, in nanoseconds */
    public long peerTimeoutNanos() {
        return peerTimeoutNanos;
    }

    Consumer<PeerFailedException> onPeerFailure() {
        return onPeerFailure;
    }

    @Override
    public String toString() {
        return "WorldConfig{" + directory + ", rank " + rank + " of " + ranks + "}";
    }

    /** Validating builder; see {@link WorldConfig#sharedMemory}. Not thread-safe. */
    public static final class Builder {
        private final Path directory;
        private final int ranks;
        private final int rank;
        private long joinTimeoutNanos = TimeUnit.SECONDS.toNanos(60);
        private long peerTimeoutNanos = TimeUnit.SECONDS.toNanos(5);
        private Consumer<PeerFailedException> onPeerFailure = f -> { };

        private Builder(final Path directory, final int ranks, final int rank) {
            Objects.requireNonNull(directory, "directory");
            if (ranks < 1 || ranks > World.MAX_RANKS) {
                throw new IllegalArgumentException("ranks must be in 1.." + World.MAX_RANKS + ", was " + ranks);
            }
            if (rank < 0 || rank >= ranks) {
                throw new IllegalArgumentException("rank must be in 0.." + (ranks - 1) + ", was " + rank);
            }
            final Path parent = directory.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new IllegalArgumentException("world directory '" + directory + "': its parent is not an existing"
                    + " directory");
            }
            this.directory = directory.toAbsolutePath();
            this.ranks = ranks;
            this.rank = rank;
        }

        /**
         * @param timeout how long building the mesh waits for every rank to join, 1 ms .. 1 h; past it the build
         *                fails naming the ranks that never came
         * @param unit    its unit
         * @return this builder
         */
        public Builder joinTimeout(final long timeout, final TimeUnit unit) {
            this.joinTimeoutNanos = checkDuration("joinTimeout", timeout, unit, TimeUnit.HOURS.toNanos(1));
            return this;
        }

        /**
         * @param timeout the failure-detection bound: a process whose heartbeat is older than this counts as failed
         *                (a process that exits or is killed is noticed sooner, at the next heartbeat check, a tenth
         *                of this at most); 100 ms .. 10 min
         * @param unit    its unit
         * @return this builder
         */
        public Builder peerTimeout(final long timeout, final TimeUnit unit) {
            final long nanos = checkDuration("peerTimeout", timeout, unit, TimeUnit.MINUTES.toNanos(10));
            if (nanos < TimeUnit.MILLISECONDS.toNanos(100)) {
                throw new IllegalArgumentException("peerTimeout must be at least 100 ms, was " + timeout + " " + unit);
            }
            this.peerTimeoutNanos = nanos;
            return this;
        }

        /**
         * @param listener called once, on the world's monitor thread, when a peer is found failed (for example to log
         *                 it, or to end the process after a grace period); it must not block
         * @return this builder
         */
        public Builder onPeerFailure(final Consumer<PeerFailedException> listener) {
            this.onPeerFailure = Objects.requireNonNull(listener, "listener");
            return this;
        }

        private static long checkDuration(final String what, final long timeout, final TimeUnit unit, final long max) {
            final long nanos = unit.toNanos(timeout);
            if (nanos < TimeUnit.MILLISECONDS.toNanos(1) || nanos > max) {
                throw new IllegalArgumentException(what + " must be in 1 ms.." + TimeUnit.NANOSECONDS.toSeconds(max)
                    + " s, was " + timeout + " " + unit);
            }
            return nanos;
        }

        /** @return the configuration */
        public WorldConfig build() {
            return new WorldConfig(this);
        }
    }
}
