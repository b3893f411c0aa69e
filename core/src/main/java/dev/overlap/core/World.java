package dev.overlap.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The processes a {@link Mesh} spans and this process's place among them: {@link #ranks()} processes (ranks), each
 * owning a contiguous range of the mesh's devices (it runs their workers and creates their memory), all of them
 * mapping every device's memory. A mesh built without a {@link WorldConfig} has the trivial world: one rank that
 * owns every device, where {@link #barrier()} returns at once and no peer can fail.
 *
 * <p><b>Shared memory.</b> A world of several ranks lives in its job directory: a control segment
 * ({@code world.ctl}: who joined, heartbeats, the barrier, the first failure, a log that checks symmetric
 * allocations agree) and one memory file per device ({@code dev<N>.mem}). Building the mesh joins the world: rank 0
 * creates the control segment, every rank claims its slot, creates its devices' memory files and announces itself
 * ready; the build returns once every rank is ready and every device's memory is mapped (or fails after the join
 * timeout, naming the ranks that never came). Closing the mesh leaves it; the last rank to leave deletes the
 * directory.
 *
 * <p><b>Symmetric allocation is collective.</b> Every rank must make the same symmetric allocations in the same
 * order (as with {@code nvshmem_malloc}); they then get the same offsets on every rank, so a global address means
 * the same memory everywhere. The mesh checks this against the control segment's log and throws an
 * {@link IllegalStateException} naming both sides when a rank's allocation differs. Local allocations
 * ({@link Device#allocate}) are made only on this rank's own devices, from the top of the memory, so that they do
 * not move symmetric offsets.
 *
 * <p><b>Failures.</b> A monitor thread writes this rank's heartbeat and watches the others: a peer whose process
 * exited (or was killed) is noticed within a tenth of the {@linkplain WorldConfig.Builder#peerTimeout peer timeout},
 * a peer that stopped writing heartbeats (hung, stopped) after the timeout. The first failure is recorded in the
 * control segment, so every survivor reports the same rank; from then on every wait on other ranks throws
 * {@link PeerFailedException} and the {@linkplain WorldConfig.Builder#onPeerFailure listener} is called once.
 *
 * <p>Thread-safety: every method may be called from any thread. {@link #barrier()} is collective: every rank calls
 * it the same number of times; everything a rank did before its call happens-before every rank's return from it
 * (release by the last arriver, acquire by the others, through the shared segment).
 */
public final class World {
    /** Most ranks a world can have. */
    public static final int MAX_RANKS = 256;

    private final int ranks;
    private final int rank;
    private final int devices;
    private final int[] firstDevice;
    private final WorldConfig config;
    private final WorldSegment segment;
    private final long pid;
    private WorldMonitor monitor;
    private volatile PeerFailedException failure;
    private boolean left;
    /** Symmetric allocations made so far (guarded by the mesh's allocation lock). */
    private long symmetricSeq;
    /** Reductions made so far (guarded by {@link #reduceLock}): their parity picks the area. */
    private long reductions;
    private final Object reduceLock = new Object();

    private World(final int devices) {
        this.ranks = 1;
        this.rank = 0;
        this.devices = devices;
        this.firstDevice = new int[] {0, devices};
        this.config = null;
        this.segment = null;
        this.pid = ProcessHandle.current().pid();
    }

    private World(final WorldConfig config, final int devices, final WorldSegment segment) {
        this.ranks = config.ranks();
        this.rank = config.rank();
        this.devices = devices;
        this.firstDevice = split(devices, ranks);
        this.config = config;
        this.segment = segment;
        this.pid = ProcessHandle.current().pid();
    }

    private World(final WorldSegment segment, final int ranks, final int rank) {
        this.ranks = ranks;
        this.rank = rank;
        this.devices = ranks;
        this.firstDevice = split(ranks, ranks);
        this.config = null;
        this.segment = segment;
        this.pid = ProcessHandle.current().pid();
    }

    /**
     * @return rank {@code rank} of a world over a caller's segment, one device per rank, without a monitor or a
     *         directory: for the jcstress tests of the barrier, which run the ranks as threads of one process
     */
    static World overSegment(final WorldSegment segment, final int ranks, final int rank) {
        return new World(segment, ranks, rank);
    }

    /** @return the world of a mesh in one process: one rank owning all {@code devices} */
    static World single(final int devices) {
        return new World(devices);
    }

    private static int[] split(final int devices, final int ranks) {
        final int[] first = new int[ranks + 1];
        for (int r = 0; r <= ranks; r++) {
            first[r] = (int)((long)r * devices / ranks);
        }
        return first;
    }

    /**
     * Joins the world described by {@code config}: the first half of the join, up to this rank's slot claimed
     * (the caller then creates its devices' memory and calls {@link #announceReady()}).
     *
     * @throws IllegalStateException naming the directory and what is wrong (another live job there, a segment made
     *                               for other settings, the rank taken, rank 0 never came)
     */
    static World join(final WorldConfig config, final int devices, final int memoryPerDevice) {
        if (devices < config.ranks()) {
            throw new IllegalArgumentException("a world of " + config.ranks() + " ranks needs at least as many devices "
                + "(each rank owns one or more), the mesh has " + devices);
        }
        final Path dir = config.directory();
        try {
            Files.createDirectories(dir);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create the world directory " + dir, e);
        }
        final long pid = ProcessHandle.current().pid();
        final long start = ProcessLiveness.currentStartMillis();
        final long deadline = System.nanoTime() + config.joinTimeoutNanos();
        final WorldSegment segment = config.rank() == 0 ? create(dir, config, devices, memoryPerDevice, pid, start)
            : await(dir, config, deadline);
        try {
            checkSettings(segment, config, devices, memoryPerDevice);
            final long holder = segment.claim(config.rank(), pid, start, System.currentTimeMillis());
            if (holder != 0) {
                throw new IllegalStateException("rank " + config.rank() + " of the world in " + dir + " is already "
                    + "taken by process " + holder + (ProcessLiveness.isAlive(holder, 0) ? "" : " (which has exited)")
                    + ": every rank must be started once, with its own rank");
            }
        } catch (final RuntimeException | Error e) {
            segment.unmap();
            throw e;
        }
        final World world = new World(config, devices, segment);
        world.monitor = WorldMonitor.start(world);
        return world;
    }

    private static WorldSegment create(final Path dir, final WorldConfig config, final int devices,
        final int memoryPerDevice, final long pid, final long start) {
        final WorldSegment old = WorldSegment.openIfPresent(dir);
        if (old != null) {
            try {
                if (ProcessLiveness.isAlive(old.creatorPid(), old.creatorStart())) {
                    throw new IllegalStateException("the world directory " + dir + " is in use by a running job "
                        + "(created by process " + old.creatorPid() + "): give each job its own directory");
                }
            } finally {
                old.unmap();
            }
        }
        return WorldSegment.create(dir, config.ranks(), devices, memoryPerDevice, pid, start);
    }

    /** Waits for rank 0's segment; a segment whose creator is gone is a dead job's, which rank 0 will replace. */
    private static WorldSegment await(final Path dir, final WorldConfig config, final long deadline) {
        int rounds = 0;
        while (true) {
            final WorldSegment s = WorldSegment.openIfPresent(dir);
            if (s != null) {
                if (ProcessLiveness.isAlive(s.creatorPid(), s.creatorStart())) {
                    return s;
                }
                s.unmap();
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("rank 0 did not create the world in " + dir + " within "
                    + TimeUnit.NANOSECONDS.toMillis(config.joinTimeoutNanos()) + " ms (is rank 0 running, with the "
                    + "same directory?)");
            }
            Waits.checkInterrupt("rank 0 to create the world in " + dir);
            pause(rounds++);
        }
    }

    private static void checkSettings(final WorldSegment s, final WorldConfig config, final int devices,
        final int memoryPerDevice) {
        if (s.ranks() != config.ranks() || s.devices() != devices || s.memoryPerDevice() != memoryPerDevice) {
            throw new IllegalStateException("the world in " + config.directory() + " was made for " + s.ranks()
                + " ranks, " + s.devices() + " devices and " + s.memoryPerDevice() + " bytes per device; this rank "
                + "was started with " + config.ranks() + " ranks, " + devices + " devices and " + memoryPerDevice
                + " bytes per device: every rank must use the same settings");
        }
    }

    /** Second half of the join: this rank's devices' memory exists; tells the others (release). */
    void announceReady() {
        segment.state(rank, WorldSegment.READY);
    }

    /**
     * Waits until every rank is ready (their memory files exist), the last step of the join.
     *
     * @throws IllegalStateException naming the ranks that did not come within the join timeout
     * @throws PeerFailedException   if a rank failed meanwhile
     */
    void awaitReady() {
        final long deadline = System.nanoTime() + config.joinTimeoutNanos();
        int rounds = 0;
        while (true) {
            checkPeers();
            final List<Integer> missing = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                final int state = segment.state(r);
                if (state == WorldSegment.LEFT) {
                    throw fail(r, "left the world while it was being joined");
                }
                if (state != WorldSegment.READY) {
                    missing.add(r);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("ranks " + missing + " did not join the world in "
                    + config.directory() + " within " + TimeUnit.NANOSECONDS.toMillis(config.joinTimeoutNanos())
                    + " ms (started? same directory and rank count?)");
            }
            Waits.checkInterrupt("every rank to join the world in " + config.directory());
            pause(rounds++);
        }
    }

    // ---------------------------------------------------------------------------------------------- queries

    /** @return number of ranks (processes) */
    public int ranks() {
        return ranks;
    }

    /** @return this process's rank */
    public int rank() {
        return rank;
    }

    /** @return true when the mesh spans more than this process */
    public boolean isDistributed() {
        return segment != null;
    }

    /**
     * @param device a device of the mesh
     * @return the rank that owns it
     */
    public int rankOf(final int device) {
        if (device < 0 || device >= devices) {
            throw new IndexOutOfBoundsException("device " + device + " does not exist: the mesh has devices 0.."
                + (devices - 1));
        }
        int r = (int)((long)device * ranks / devices);
        while (firstDevice[r + 1] <= device) {
            r++;
        }
        while (firstDevice[r] > device) {
            r--;
        }
        return r;
    }

    /**
     * @param device a device id (any value: one outside the world is simply not local)
     * @return true if this rank owns {@code device}
     */
    public boolean isLocal(final int device) {
        return device >= firstDevice[rank] && device < firstDevice[rank + 1];
    }

    /** @return the first device this rank owns */
    public int firstLocalDevice() {
        return firstDevice[rank];
    }

    /** @return how many devices this rank owns */
    public int localDeviceCount() {
        return firstDevice[rank + 1] - firstDevice[rank];
    }

    /**
     * @param rank a rank of this world, 0..size - 1
     * @return the first device of {@code rank}
     */
    public int firstDeviceOf(final int rank) {
        return firstDevice[rank];
    }

    /** @return the job directory, or null for a world of one process */
    public Path directory() {
        return config != null ? config.directory() : null;
    }

    /** @return the failure seen so far, or null */
    public PeerFailedException failure() {
        return failure;
    }

    /**
     * @throws PeerFailedException if a rank of this world has failed (a new exception with this call's stack, the
     *                             first observation as its cause)
     */
    public void checkPeers() {
        final PeerFailedException f = failure;
        if (f != null) {
            throw new PeerFailedException(f);
        }
    }

    // ---------------------------------------------------------------------------------------------- barrier

    /**
     * Waits until every rank has called {@code barrier()} as many times as this one (collective).
     *
     * @throws PeerFailedException      if a rank fails or leaves meanwhile
     * @throws InterruptedWaitException if interrupted (this rank's arrival is taken back first, so the barrier stays
     *                                  usable, unless it completed meanwhile: then it returns with the status set)
     * @throws IllegalStateException    if the mesh is closed
     */
    public void barrier() {
        awaitBarrier(Waits.NO_DEADLINE);
    }

    /**
     * As {@link #barrier()}, giving up after {@code timeout}.
     *
     * @param timeout longest wait, {@code <= 0} to only check whether the barrier is already complete
     * @param unit its unit
     * @return true if the barrier completed; false if it timed out (this rank's arrival is taken back)
     */
    public boolean barrier(final long timeout, final TimeUnit unit) {
        return awaitBarrier(Waits.deadline(timeout, unit));
    }

    /**
     * As {@link #barrier()}, running {@code whileWaiting} in every round of the wait: for a rank that must keep
     * making progress for the others while it waits (a transport draining its inboxes, so that a rank still flushing
     * into them is not held up by this one's wait).
     *
     * @param whileWaiting run by the calling thread in every round of the wait; must not block
     */
    public void barrier(final Runnable whileWaiting) {
        Objects.requireNonNull(whileWaiting, "whileWaiting");
        awaitBarrier(Waits.NO_DEADLINE, whileWaiting);
    }

    private boolean awaitBarrier(final long deadline) {
        return awaitBarrier(deadline, null);
    }

    private boolean awaitBarrier(final long deadline, final Runnable whileWaiting) {
        if (segment == null) {
            return true;
        }
        checkJoined();
        checkPeers();
        final long generation = segment.arrive(ranks);
        int rounds = 0;
        while (WorldSegment.generationOf(segment.barrierWord()) == generation) {
            final boolean interrupted = Thread.interrupted();
            final RuntimeException stop = interrupted ? Waits.interrupted("a barrier of " + this)
                : failure != null ? new PeerFailedException(failure) : (rounds & 63) == 63 ? goneOrFailedPeer() : null;
            if (stop != null || (deadline != Waits.NO_DEADLINE && System.nanoTime() - deadline >= 0)) {
                if (!segment.withdraw(generation, ranks)) {
                    return true; // completed meanwhile: this arrival counted (an interrupt stays set)
                }
                if (stop != null) {
                    throw stop;
                }
                return false;
            }
            if (whileWaiting != null) {
                whileWaiting.run();
            }
            pause(rounds++);
        }
        return true;
    }

    // -------------------------------------------------------------------------------------------- reductions

    /**
     * Sums {@code values} element by element over every rank, in place (collective, like {@code MPI_Allreduce}):
     * on return every rank holds the same sums. Every rank calls it the same number of times with arrays of the same
     * length. One barrier: each rank writes its values into its own area of the control segment, the barrier orders
     * the writes before every rank's reads, and two areas taken in turn keep a fast rank's next reduction from
     * overwriting values a slow rank is still reading (it can only get two reductions ahead after everyone has passed
     * the barrier of the one in between, which they reach only after reading).
     *
     * @param values up to {@value WorldSegment#REDUCE_VALUES} values; replaced by their sums
     * @throws PeerFailedException      as {@link #barrier()}
     * @throws InterruptedWaitException as {@link #barrier()} (the reduction then did not happen for this rank: the
     *                                  world is broken, since the others may have completed it)
     */
    public void allReduceSum(final long[] values) {
        allReduce(values, SUM);
    }

    /**
     * Takes the element-wise maximum of {@code values} over every rank, in place (collective; see
     * {@link #allReduceSum(long[])}).
     *
     * @param values up to {@value WorldSegment#REDUCE_VALUES} values; replaced by their maxima
     */
    public void allReduceMax(final long[] values) {
        allReduce(values, MAX);
    }

    /**
     * @param value this rank's value
     * @return the maximum of {@code value} over every rank (collective; see {@link #allReduceSum(long[])})
     */
    public long allReduceMax(final long value) {
        final long[] v = {value};
        allReduceMax(v);
        return v[0];
    }

    /**
     * Checks that every rank passed the same {@code value} for a setting that must agree (collective: one reduction).
     *
     * @param what names the setting, for the message
     * @param value this rank's value of the setting
     * @throws IllegalStateException naming the setting and the smallest and largest values if they differ
     */
    public void checkSame(final String what, final long value) {
        final long[] v = {value, -value};
        allReduceMax(v);
        if (v[0] != -v[1]) {
            throw new IllegalStateException(what + " differs across the ranks of " + this + ": from " + -v[1] + " to "
                + v[0] + " (every rank must use the same value)");
        }
    }

    private static final int SUM = 0;
    private static final int MAX = 1;

    private void allReduce(final long[] values, final int op) {
        if (values.length > WorldSegment.REDUCE_VALUES) {
            throw new IllegalArgumentException("a reduction takes at most " + WorldSegment.REDUCE_VALUES
                + " values, got " + values.length);
        }
        if (segment == null) {
            return;
        }
        synchronized (reduceLock) {
            final int parity = (int)(reductions++ & 1);
            for (int i = 0; i < values.length; i++) {
                segment.putReduceValue(parity, rank, i, values[i]);
            }
            barrier();
            for (int i = 0; i < values.length; i++) {
                long result = op == SUM ? 0 : Long.MIN_VALUE;
                for (int r = 0; r < ranks; r++) {
                    final long v = segment.reduceValue(parity, r, i);
                    result = op == SUM ? result + v : Math.max(result, v);
                }
                values[i] = result;
            }
        }
    }

    /**
     * @param value this rank's value
     * @return the sum over every rank (collective; see {@link #allReduceSum(long[])})
     */
    public long allReduceSum(final long value) {
        final long[] v = {value};
        allReduceSum(v);
        return v[0];
    }

    /**
     * @return the error for a failure another rank recorded (adopted here too, should this rank's own monitor be
     *         slow) or for a rank that left while this one waits for all; null if neither
     */
    private PeerFailedException goneOrFailedPeer() {
        final PeerFailedException recorded = config != null ? adoptRecorded() : null;
        return recorded != null ? new PeerFailedException(recorded) : leftPeer();
    }

    /** @return the error for a rank that left while this one waits for all, or null */
    private PeerFailedException leftPeer() {
        for (int r = 0; r < ranks; r++) {
            if (r != rank && segment.state(r) == WorldSegment.LEFT) {
                return new PeerFailedException(r, "left the world (closed its mesh) while rank " + rank
                    + " waits for every rank");
            }
        }
        return null;
    }

    private synchronized void checkJoined() {
        if (left) {
            throw new IllegalStateException(this + " was left: its mesh is closed");
        }
    }

    // ------------------------------------------------------------------------------------- symmetric allocation

    /**
     * Checks the next symmetric allocation against the other ranks' (the caller holds the mesh's allocation lock).
     *
     * @throws IllegalStateException naming both sides when they differ
     */
    void checkSymmetric(final long offset, final long bytes) {
        if (segment == null) {
            return;
        }
        final long seq = ++symmetricSeq;
        final String other = segment.checkSymmetric(seq, offset, bytes, rank);
        if (other != null) {
            throw new IllegalStateException("symmetric allocation #" + seq + " differs across ranks: " + other
                + ", rank " + rank + " made it " + bytes + " bytes at offset " + offset + " (every rank must make "
                + "the same symmetric allocations in the same order, and local allocations must leave room for them:"
                + " give the devices more memory)");
        }
    }

    // ------------------------------------------------------------------------------------------------ leave

    /**
     * Leaves the world (the mesh's close, after its threads stopped): this rank's state becomes "left", the monitor
     * stops, and the rank that finds every other rank gone (left, never joined, or dead) deletes the job directory,
     * so a job whose processes crashed is cleaned up by its survivors too. Idempotent.
     */
    void leave() {
        synchronized (this) {
            if (segment == null || left) {
                return;
            }
            left = true;
        }
        monitor.stop(); // outside the lock: the monitor may be adopting a failure, which takes it
        // Volatile store, then volatile loads of the others' states (Dekker): of two ranks leaving at once, at least
        // the second sees the first gone, so somebody deletes the directory.
        segment.leave(rank);
        boolean last = true;
        for (int r = 0; r < ranks && last; r++) {
            if (r != rank) {
                final int state = segment.stateVolatile(r);
                last = state == WorldSegment.LEFT || state == WorldSegment.ABSENT
                    || !ProcessLiveness.isAlive(segment.pid(r), segment.start(r));
            }
        }
        segment.unmap();
        if (last) {
            deleteDirectory(config.directory());
        }
    }

    /** Leaves a world whose join failed half-way (nothing else is mapped). */
    void abandonJoin() {
        leave();
    }

    // ------------------------------------------------------------------------------------------ failures

    WorldSegment segment() {
        return segment;
    }

    /** @return the failure detector (tests stop it to play a hung process) */
    WorldMonitor monitorForTest() {
        return monitor;
    }

    WorldConfig config() {
        return config;
    }

    long pid() {
        return pid;
    }

    /**
     * Records {@code rank} as failed (unless another failure was recorded first) and adopts whatever the segment
     * holds then, so every rank reports the same one.
     *
     * @return the failure adopted
     */
    PeerFailedException fail(final int failedRank, final String reason) {
        segment.recordFailure(failedRank, reason);
        return adoptRecorded();
    }

    /** Adopts the failure recorded in the segment, if any (the listener runs once, on the first adoption). */
    PeerFailedException adoptRecorded() {
        final int failed = segment.failedRank();
        if (failed < 0) {
            return failure;
        }
        synchronized (this) {
            if (failure == null) {
                final String reason = segment.failureReason();
                final PeerFailedException f = new PeerFailedException(failed, failed == rank ? reason
                    + " (this process, declared failed by a peer)" : reason);
                try {
                    config.onPeerFailure().accept(f); // before any wait can throw it: the listener hears it first
                } catch (final RuntimeException e) {
                    // a listener's own failure must not stop the monitor from reporting
                } finally {
                    failure = f;
                }
            }
            return failure;
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Spins a little, then yields, then parks up to a millisecond: the waits here are set-up and collective ones. */
    static void pause(final int rounds) {
        if (rounds < 64) {
            Thread.onSpinWait();
        } else if (rounds < 128) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, 1_000L << Math.min(10, (rounds - 128) / 16)));
        }
    }

    /**
     * Deletes the world directories under {@code base} (named {@code overlap-*}) whose processes are all gone: left
     * behind by jobs that crashed. A directory with a live process, or without a readable control segment younger
     * than a minute (a job starting now), is kept; so is one without a control segment that holds anything but a
     * world's files (it is not a world's: the counters directory {@code overlap-<user>} lives beside the jobs).
     *
     * @param base the directory the jobs' world directories live in; nothing is done if it is not a directory
     * @return the directories deleted
     */
    public static List<Path> removeStale(final Path base) {
        final List<Path> removed = new ArrayList<>();
        if (!Files.isDirectory(base)) {
            return removed;
        }
        try (Stream<Path> dirs = Files.list(base)) {
            for (final Path dir : (Iterable<Path>)dirs::iterator) {
                if (Files.isDirectory(dir) && dir.getFileName().toString().startsWith("overlap-") && isStale(dir)) {
                    deleteDirectory(dir);
                    removed.add(dir);
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + base, e);
        }
        return removed;
    }

    private static boolean isStale(final Path dir) {
        final WorldSegment s;
        try {
            s = WorldSegment.openIfPresent(dir);
        } catch (final IllegalStateException notOurs) {
            return false;
        }
        if (s == null) {
            try {
                return holdsOnlyWorldFiles(dir)
                    && System.currentTimeMillis() - Files.getLastModifiedTime(dir).toMillis() > 60_000;
            } catch (final IOException e) {
                return false;
            }
        }
        try {
            if (ProcessLiveness.isAlive(s.creatorPid(), s.creatorStart())) {
                return false;
            }
            for (int r = 0; r < s.ranks(); r++) {
                final long p = s.pid(r);
                if (p != 0 && s.state(r) != WorldSegment.LEFT && ProcessLiveness.isAlive(p, s.start(r))) {
                    return false;
                }
            }
            return true;
        } finally {
            s.unmap();
        }
    }

    /** The files a world's directory holds besides its control segment: a segment being created, device memory. */
    private static final java.util.regex.Pattern WORLD_FILE = java.util.regex.Pattern.compile(
        java.util.regex.Pattern.quote(WorldSegment.FILE_NAME) + "\\.tmp-\\d+|dev\\d+\\.mem");

    /**
     * @return true if {@code dir} holds nothing but files a world makes (none at all counts): a directory named
     *         {@code overlap-*} that holds anything else (the counters files of {@code overlap stat}, say) is not a
     *         world's, and is never removed as a stale one
     */
    private static boolean holdsOnlyWorldFiles(final Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.allMatch(f -> WORLD_FILE.matcher(f.getFileName().toString()).matches());
        }
    }

    /** Walks of a directory that {@link #deleteDirectory} makes at most (each gives up on a concurrent removal). */
    private static final int DELETE_ATTEMPTS = 8;

    /**
     * Deletes {@code dir} and what it holds, best effort (a file another process deletes meanwhile is skipped;
     * nothing is thrown): for a launcher that removes its job's directory once every process of the job has ended,
     * whether or not the job ever created its control segment. Deleting the directory of a job that still runs breaks
     * that job.
     *
     * @param dir a job directory (a missing one is fine)
     */
    public static void deleteDirectory(final Path dir) {
        // a walk that meets an entry another deleter removed under it gives up; the next walk starts from what is left
        for (int attempt = 0; attempt < DELETE_ATTEMPTS && Files.exists(dir, LinkOption.NOFOLLOW_LINKS); attempt++) {
            deleteWalk(dir);
        }
    }

    private static void deleteWalk(final Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (final IOException e) {
                    // best effort: another process may be deleting it too
                }
            });
        } catch (final IOException | UncheckedIOException e) {
            // gone already, or going: two ranks that leave at once may both delete it (the walk then finds an
            // entry the other removed, which it reports unchecked)
        }
    }

    @Override
    public String toString() {
        return segment == null ? "World{1 rank}" : "World{rank " + rank + " of " + ranks
            + (config != null ? ", " + config.directory() : "") + "}";
    }
}
