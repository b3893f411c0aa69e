package dev.overlap.graph.cli;

import dev.overlap.core.PeerFailedException;
import dev.overlap.core.World;
import dev.overlap.core.WorldConfig;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * The world a process of {@code overlap launch} runs in, as the launcher hands it to each child in its environment:
 * {@value #DIR_ENV} (the job directory), {@value #RANKS_ENV} (how many processes), {@value #RANK_ENV} (this one's
 * rank), {@value #PEER_TIMEOUT_ENV} and {@value #JOIN_TIMEOUT_ENV} (milliseconds). A command that runs across
 * processes ({@code bfs}, {@code pr}, {@code sssp}, {@code jacobi}) builds its mesh with {@link #config} when they are
 * set; without {@value #DIR_ENV} it runs in one process as usual. The same variables start ranks by hand (each with
 * its own rank, all with the same directory and arguments).
 *
 * <p><b>Nobody hangs.</b> The configuration's failure listener gives the process a grace period of
 * {@value #GRACE_FACTOR} peer timeouts once a peer is found failed: the library's waits end with
 * {@link PeerFailedException} at once and the command exits 1 naming the failed rank; should the process still run
 * when the grace period ends (some wait that does not check the peers), it prints that line itself and halts with
 * exit code 1.
 *
 * <p>Immutable; thread-safe.
 */
final class LaunchedWorld {
    /** The job directory, shared by every rank. */
    static final String DIR_ENV = "OVERLAP_WORLD_DIR";
    /** How many processes the job has. */
    static final String RANKS_ENV = "OVERLAP_RANKS";
    /** This process's rank, 0 .. ranks - 1. */
    static final String RANK_ENV = "OVERLAP_RANK";
    /** Milliseconds without a heartbeat after which a peer counts as failed. */
    static final String PEER_TIMEOUT_ENV = "OVERLAP_PEER_TIMEOUT_MS";
    /** Milliseconds the mesh's build waits for every rank to join. */
    static final String JOIN_TIMEOUT_ENV = "OVERLAP_JOIN_TIMEOUT_MS";
    /** Peer timeouts a process may take to exit after a peer failed, before it halts. */
    static final int GRACE_FACTOR = 2;
    /** The library's default peer timeout, when the variable is not set. */
    static final long DEFAULT_PEER_TIMEOUT_MILLIS = 5_000;
    /** The library's default join timeout, when the variable is not set. */
    static final long DEFAULT_JOIN_TIMEOUT_MILLIS = 60_000;

    private final Path directory;
    private final int ranks;
    private final int rank;
    private final long peerTimeoutMillis;
    private final long joinTimeoutMillis;

    LaunchedWorld(final Path directory, final int ranks, final int rank, final long peerTimeoutMillis,
        final long joinTimeoutMillis) {
        this.directory = directory;
        this.ranks = ranks;
        this.rank = rank;
        this.peerTimeoutMillis = peerTimeoutMillis;
        this.joinTimeoutMillis = joinTimeoutMillis;
    }

    /** @return the world of this process's environment, or null when it runs alone */
    static LaunchedWorld current() {
        return fromEnvironment(System.getenv());
    }

    /**
     * @param env the environment
     * @return the world it names, or null without {@value #DIR_ENV}
     * @throws IllegalArgumentException naming the variable that is missing or malformed
     */
    static LaunchedWorld fromEnvironment(final Map<String, String> env) {
        final String dir = env.get(DIR_ENV);
        if (dir == null || dir.isEmpty()) {
            return null;
        }
        final int ranks = (int)number(env, RANKS_ENV, 1, World.MAX_RANKS, -1);
        final int rank = (int)number(env, RANK_ENV, 0, ranks - 1, -1);
        final long peer = number(env, PEER_TIMEOUT_ENV, 100, TimeUnit.MINUTES.toMillis(10), DEFAULT_PEER_TIMEOUT_MILLIS);
        final long join = number(env, JOIN_TIMEOUT_ENV, 1, TimeUnit.HOURS.toMillis(1), DEFAULT_JOIN_TIMEOUT_MILLIS);
        return new LaunchedWorld(Path.of(dir), ranks, rank, peer, join);
    }

    private static long number(final Map<String, String> env, final String name, final long min, final long max,
        final long fallback) {
        final String text = env.get(name);
        if (text == null || text.isEmpty()) {
            if (fallback >= 0) {
                return fallback;
            }
            throw new IllegalArgumentException("the environment sets " + DIR_ENV + " but not " + name + " (set by "
                + "'overlap launch'; to start a rank by hand set " + DIR_ENV + ", " + RANKS_ENV + " and " + RANK_ENV
                + ")");
        }
        final long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(name + "='" + text + "' is not a whole number");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + "=" + value + " is outside " + min + ".." + max);
        }
        return value;
    }

    /** @return the job directory */
    Path directory() {
        return directory;
    }

    /** @return how many processes the job has */
    int ranks() {
        return ranks;
    }

    /** @return this process's rank */
    int rank() {
        return rank;
    }

    /** @return the peer timeout in milliseconds */
    long peerTimeoutMillis() {
        return peerTimeoutMillis;
    }

    /** @return how long a process may take to exit after a peer failed before it halts, in milliseconds */
    long graceMillis() {
        return GRACE_FACTOR * peerTimeoutMillis;
    }

    /**
     * @param command the command's name, as {@code overlap bfs}, for the halting line
     * @param err     where the halting line goes
     * @param halt    ends the process ({@code Runtime.getRuntime()::halt} outside tests)
     * @return the world configuration for this rank, with the halting failure listener (see the class comment)
     */
    WorldConfig config(final String command, final PrintWriter err, final IntConsumer halt) {
        return WorldConfig.sharedMemory(directory, ranks, rank).peerTimeout(peerTimeoutMillis, TimeUnit.MILLISECONDS)
            .joinTimeout(joinTimeoutMillis, TimeUnit.MILLISECONDS)
            .onPeerFailure(failure -> haltAfterGrace(command, err, halt, failure)).build();
    }

    /** Starts the timer that halts the process if it still runs {@link #graceMillis()} after {@code failure}. */
    void haltAfterGrace(final String command, final PrintWriter err, final IntConsumer halt,
        final PeerFailedException failure) {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis());
        final Thread t = new Thread(() -> {
            for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(left); // a time limit, not a synchronisation: exiting ends this thread
            }
            err.println(command + ": " + failure.getMessage() + " (rank " + rank + " still ran " + graceMillis()
                + " ms later: halting)");
            err.flush();
            halt.accept(CliErrors.FAILURE);
        }, "overlap-peer-failure-guard");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public String toString() {
        return "rank " + rank + " of " + ranks + " in " + directory;
    }
}
