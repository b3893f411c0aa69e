package dev.overlap.hosts;

import dev.overlap.core.AgentThread;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.ProcessLiveness;
import dev.overlap.core.Waits;
import dev.overlap.core.World;
import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.CncFileDescriptor;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.AeronException;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A group of processes on several hosts, the members of a {@link HostFile}, joined over Aeron UDP: what
 * {@link World} gives the processes of one host (membership, barriers, reductions, failure detection), through
 * messages instead of shared memory. It is the membership layer across hosts; a {@link HostTransport} carries
 * remote pushes, puts, gets and atomics over it (the distributed worklist does not run over it yet).
 *
 * <pre>{@code
 * HostFile hosts = HostFile.read(Path.of("hosts.txt"));
 * try (HostGroup group = HostGroup.builder(hosts, rank).peerTimeout(2, TimeUnit.SECONDS).join()) {
 *     group.checkSame("input size", n);
 *     long total = group.allReduceSum(localCount);
 *     group.barrier();
 * }
 * }</pre>
 *
 * <p><b>Joining.</b> Each rank starts an embedded Aeron media driver in a private directory (shared threading mode,
 * the directory deleted on start and on close), or connects to an external driver when
 * {@linkplain Builder#aeronDirectory an Aeron directory} is configured. It receives on one subscription, bound to its
 * own endpoint in the host file, and sends to every other rank through a publication of its own. {@link Builder#join}
 * returns once every publication is connected and a message from every rank has arrived, or fails after the join
 * timeout naming the ranks that never came.
 *
 * <p><b>Collectives.</b> {@link #barrier()}, {@link #allReduceSum(long[])}, {@link #allReduceMax(long[])} and
 * {@link #checkSame} are collective, as in MPI: every rank makes the same ones in the same order. Each is one message
 * to every peer (this rank's contribution, numbered by a generation per rank) and a wait for every peer's; the
 * receiver checks that each peer's generations run 1, 2, 3..., so a lost or duplicated message is reported instead of
 * being mixed into a result, and a rank whose call differs (another operation, another number of values) gets an
 * {@link IllegalStateException} naming both sides. Results are the same on every rank (long sums and maxima do not
 * depend on the order). Sends go through {@link Publication#offer}: {@code BACK_PRESSURED} and {@code ADMIN_ACTION}
 * are retried under a backoff idle strategy within the call's deadline; {@code NOT_CONNECTED} means the peer's
 * receiver is gone and fails it; {@code CLOSED} and {@code MAX_POSITION_EXCEEDED} are {@link IllegalStateException}s
 * naming the group.
 *
 * <p><b>Timeouts and interrupts.</b> Every wait is interruptible ({@link InterruptedWaitException}, interrupt status
 * kept) and has a timed form (the one-value reductions through their array forms). A contribution cannot be taken
 * back once sent (unlike the shared-memory barrier's arrival), so a collective that timed out or was interrupted
 * stays <i>pending</i>: this rank's next collective must be the same operation with the same number of values, and
 * completes the pending one instead of starting another (its values are not sent again; the array receives the
 * pending one's results). A loop such as
 * {@code while (!group.barrier(1, SECONDS)) { ... }} therefore waits for one barrier, not several.
 *
 * <p><b>Failures.</b> A thread of the group's own (an Agrona agent) receives the peers' messages, sends a heartbeat
 * to every peer every tenth of the peer timeout (at most every 100 ms) and checks every peer: one whose connection
 * closed without a goodbye (its Aeron image became unavailable: the process ended, was killed, or the network is
 * down) or that was silent longer than the {@linkplain Builder#peerTimeout peer timeout} has failed, and so has one
 * whose receiver a send finds gone. The first failure recorded is reported to the other peers, so survivors name the
 * same rank; from then on every wait (collectives, {@link #checkPeers()}) throws {@link PeerFailedException} naming it.
 * A peer that closed its group in order (a goodbye) has left: a collective that still needs it throws
 * {@link PeerFailedException} saying so; otherwise leaving is no failure.
 *
 * <p><b>Closing</b> ({@link #close()}, idempotent) says goodbye to every peer and waits, at most the peer timeout, for
 * each to acknowledge it (a peer's acknowledgement proves it received everything this rank sent before; a failure
 * already recorded skips the wait) and for the media driver to have sent what was offered; then it stops the agent,
 * closes the Aeron client and the embedded driver and deletes the driver's directory. After it every public method
 * but {@link #close()} and {@link #toString()} throws an {@link IllegalStateException} naming the group.
 *
 * <p><b>Thread-safety and memory ordering.</b> Every method may be called from any thread. Collectives are
 * serialised by a lock (a second caller waits for the first, interruptibly; its timed form within its timeout), and
 * their order must be the same on every rank, so a program normally makes them from one thread. Within this process,
 * what the receiving thread stored of a peer's contribution happens-before the collective's return (a release store
 * of the generation after the values, an acquire load before reading them). Across processes
 * there is no shared memory: a barrier orders the ranks' messages through this group, not their memory.
 */
public final class HostGroup implements AutoCloseable {
    /** Most values one reduction takes. */
    public static final int MAX_VALUES = Wire.MAX_VALUES;

    private final HostFile hosts;
    private final int rank;
    private final int ranks;
    private final long group;
    private final long peerTimeoutNanos;
    private final Path driverDirectory;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Publication[] publications;
    private final GroupState state;
    private AgentThread agent;
    /** Serialises collectives; guards {@link #generation}, {@link #pending}, {@link #outOfStep}, {@link #message}. */
    private final ReentrantLock collectiveLock = new ReentrantLock();
    /** Held around every offer of a caller, so that {@link #close()} never closes Aeron under one. */
    private final Object sendLock = new Object();
    private volatile boolean closed;
    private long generation;
    private Pending pending;
    private String outOfStep;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[Wire.MAX_MESSAGE]);
    /** The host transport over this group, closed first by {@link #close()} (guarded by {@link #sendLock}). */
    private HostTransport transport;

    /** A collective whose contribution went (or is going) out and whose wait did not complete. */
    private static final class Pending {
        final long generation;
        final int op;
        final int count;
        /** This rank's contribution. */
        final long[] own;
        final int length;
        final boolean[] sent;

        Pending(final long generation, final int op, final long[] own, final int length, final int ranks) {
            this.generation = generation;
            this.op = op;
            this.count = own.length;
            this.own = own.clone();
            this.length = length;
            this.sent = new boolean[ranks];
        }
    }

    private HostGroup(final Builder b, final GroupState state, final Path driverDirectory, final MediaDriver driver,
        final Aeron aeron, final Publication[] publications) {
        this.hosts = b.hosts;
        this.rank = b.rank;
        this.ranks = b.hosts.ranks();
        this.group = b.hosts.fingerprint();
        this.peerTimeoutNanos = b.peerTimeoutNanos;
        this.state = state;
        this.driverDirectory = driverDirectory;
        this.driver = driver;
        this.aeron = aeron;
        this.publications = publications;
    }

    /**
     * @param hosts the members
     * @param rank  this process's rank in {@code hosts}
     * @return a builder with the defaults: join within 60 s, a peer failed after 5 s of silence, an embedded driver
     * @throws IllegalArgumentException if {@code rank} is not in the host file
     */
    public static Builder builder(final HostFile hosts, final int rank) {
        return new Builder(hosts, rank);
    }

    // --------------------------------------------------------------------------------------------- starting

    private static HostGroup start(final Builder b) {
        final HostFile hosts = b.hosts;
        final GroupState state = new GroupState(hosts.ranks());
        Path dir = b.aeronDirectory;
        MediaDriver driver = null;
        Aeron aeron = null;
        HostGroup g = null;
        try {
            if (dir == null) {
                dir = newDriverDirectory(b.rank);
                driver = MediaDriver.launch(new MediaDriver.Context()
                    .aeronDirectoryName(dir.toString())
                    .threadingMode(ThreadingMode.SHARED)
                    .dirDeleteOnStart(true)
                    .dirDeleteOnShutdown(true)
                    .termBufferSparseFile(true)
                    .warnIfDirectoryExists(false));
            }
            final int self = b.rank;
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir.toString())
                .errorHandler(e -> onAeronError(state, self, e)));
            final Subscription subscription;
            try {
                subscription = aeron.addSubscription(channel(hosts.member(self)), Wire.STREAM_ID);
            } catch (final RuntimeException e) {
                throw new IllegalStateException("rank " + self + " cannot receive on " + hosts.member(self).endpoint()
                    + ", its endpoint in host file " + hosts.source() + " (is it an address of this host, and the "
                    + "port free?): " + e.getMessage(), e);
            }
            final Publication[] publications = new Publication[hosts.ranks()];
            for (int r = 0; r < hosts.ranks(); r++) {
                if (r != self) {
                    publications[r] = aeron.addPublication(channel(hosts.member(r)), Wire.STREAM_ID);
                    if (publications[r].maxPayloadLength() < Wire.MAX_MESSAGE) {
                        throw new IllegalStateException("the publication to rank " + r + " carries at most "
                            + publications[r].maxPayloadLength() + " bytes per frame, a host group needs "
                            + Wire.MAX_MESSAGE + ": raise the media driver's MTU");
                    }
                }
            }
            g = new HostGroup(b, state, b.aeronDirectory == null ? dir : null, driver, aeron, publications);
            g.agent = AgentThread.start(new GroupAgent(hosts, self, subscription, publications, state,
                    b.peerTimeoutNanos), backoff(),
                e -> onAgentError(state, self, e), null, "overlap-hosts-r" + self);
            g.awaitJoined(Waits.deadline(b.joinTimeoutNanos, TimeUnit.NANOSECONDS), b.joinTimeoutNanos);
            return g;
        } catch (final RuntimeException | Error e) {
            final boolean interrupted = Thread.interrupted(); // an interrupted join: clean up first, uninterrupted
            try {
                if (g != null) {
                    g.closed = true;
                    g.release();
                } else {
                    CloseHelper.quietCloseAll(aeron, driver);
                    if (b.aeronDirectory == null && dir != null) {
                        World.deleteDirectory(dir);
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            throw e;
        }
    }

    private static String channel(final HostFile.Member m) {
        return channel(m, 65536);
    }

    /** @return the UDP channel to member {@code m} with terms of {@code termLength} bytes */
    static String channel(final HostFile.Member m, final int termLength) {
        return "aeron:udp?endpoint=" + m.endpoint() + "|term-length=" + termLength;
    }

    /** Embedded drivers' directories: this prefix, then {@code r<rank>-p<pid>-s<start millis>-} and a random tail. */
    static final String DRIVER_DIRECTORY_PREFIX = "aeron-overlap-hosts-";

    private static Path newDriverDirectory(final int rank) {
        final Path shm = Path.of("/dev/shm");
        final Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm
            : Path.of(System.getProperty("java.io.tmpdir"));
        removeStaleDriverDirectories(base);
        try {
            return Files.createTempDirectory(base, DRIVER_DIRECTORY_PREFIX + "r" + rank + "-p"
                + ProcessHandle.current().pid() + "-s" + ProcessLiveness.currentStartMillis() + "-");
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create a directory for the embedded Aeron media driver", e);
        }
    }

    /**
     * Removes the embedded drivers' directories under {@code base} whose process is provably dead: its name records
     * the pid and start time of the process that made it, and no process with that pid and start time runs (a rank
     * killed, or out of memory, never ran its close). A directory of a live process, or one whose name does not say
     * whose it is, is left alone.
     *
     * @param base the directory the drivers' directories are made in
     * @return the directories removed
     */
    static List<Path> removeStaleDriverDirectories(final Path base) {
        final List<Path> removed = new ArrayList<>();
        try (java.util.stream.Stream<Path> dirs = Files.list(base)) {
            for (final Path dir : (Iterable<Path>)dirs::iterator) {
                final java.util.regex.Matcher m = STALE_NAME.matcher(dir.getFileName().toString());
                if (m.matches() && Files.isDirectory(dir)
                    && !ProcessLiveness.isAlive(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))) {
                    World.deleteDirectory(dir);
                    removed.add(dir);
                }
            }
        } catch (final IOException | UncheckedIOException e) {
            return removed; // a directory we cannot list or delete is left; the new driver gets its own anyway
        }
        return removed;
    }

    private static final java.util.regex.Pattern STALE_NAME = java.util.regex.Pattern.compile(
        java.util.regex.Pattern.quote(DRIVER_DIRECTORY_PREFIX) + "r\\d+-p(\\d+)-s(\\d+)-.*");

    private static void onAeronError(final GroupState state, final int rank, final Throwable e) {
        if (e instanceof AeronException && ((AeronException)e).category() == AeronException.Category.WARN) {
            return; // Aeron carries on after a warning
        }
        state.fail(rank, "its Aeron client failed: " + e);
    }

    private static void onAgentError(final GroupState state, final int rank, final Throwable e) {
        state.fail(rank, "its receiver failed: " + e);
    }

    private void awaitJoined(final long deadline, final long timeoutNanos) {
        final IdleStrategy idle = backoff();
        while (true) {
            checkFailure();
            final List<String> missing = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                if (r != rank && !(publications[r].isConnected() && state.hasJoined(r))) {
                    missing.add(hosts.member(r) + (publications[r].isConnected() ? " (connected, nothing heard from it)"
                        : " (no connection to it)"));
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            if (Thread.interrupted()) {
                throw Waits.interrupted("every rank to join " + this);
            }
            if (Waits.remaining(deadline) <= 0) {
                final long ignored = state.ignoredMessages();
                throw new IllegalStateException("ranks did not join " + this + " within "
                    + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms: " + String.join(", ", missing)
                    + " (started? with the same host file? reachable?)" + (ignored == 0 ? "" : "; " + ignored
                    + " messages from processes with another host file were ignored"));
            }
            idle.idle();
        }
    }

    // ---------------------------------------------------------------------------------------------- queries

    /** @return this process's rank */
    public int rank() {
        checkOpen();
        return rank;
    }

    /** @return how many ranks the group has */
    public int ranks() {
        checkOpen();
        return ranks;
    }

    /** @return the host file the group was built from */
    public HostFile hosts() {
        checkOpen();
        return hosts;
    }

    /** @return the first failure of a rank seen by this rank, or null */
    public PeerFailedException failure() {
        checkOpen();
        final GroupState.Failure f = state.failure();
        return f == null ? null : f.exception;
    }

    /**
     * @throws PeerFailedException if a rank has failed (a new exception with this call's stack, the first
     *                             observation as its cause)
     */
    public void checkPeers() {
        checkOpen();
        checkFailure();
    }

    // ---------------------------------------------------------------------------------------------- collectives

    /**
     * Waits until every rank has made as many collectives as this one (collective).
     *
     * @throws PeerFailedException      if a rank failed, or left while this one needs it
     * @throws InterruptedWaitException if interrupted (the barrier stays pending: see the class comment)
     * @throws IllegalStateException    if the group is closed, or the ranks' collectives differ
     */
    public void barrier() {
        collective(Wire.BARRIER, new long[0], Waits.NO_DEADLINE, null);
    }

    /**
     * As {@link #barrier()}, giving up after {@code timeout}.
     *
     * @param timeout the longest wait, {@code <= 0} for "do not wait"
     * @param unit    its unit
     * @return true if the barrier completed; false if it timed out (it stays pending: the next collective must be a
     *         barrier, which completes this one)
     */
    public boolean barrier(final long timeout, final TimeUnit unit) {
        return collective(Wire.BARRIER, new long[0], Waits.deadline(timeout, unit), null);
    }

    /**
     * Sums {@code values} element by element over every rank, in place (collective, like {@code MPI_Allreduce}):
     * on return every rank holds the same sums (overflow wraps, as {@code long} addition does).
     *
     * @param values up to {@value #MAX_VALUES} values, the same number on every rank; replaced by their sums
     * @throws PeerFailedException      as {@link #barrier()}
     * @throws InterruptedWaitException as {@link #barrier()}
     * @throws IllegalStateException    as {@link #barrier()}
     */
    public void allReduceSum(final long[] values) {
        collective(Wire.SUM, checkValues(values), Waits.NO_DEADLINE, null);
    }

    /**
     * As {@link #allReduceSum(long[])}, giving up after {@code timeout}.
     *
     * @param values  up to {@value #MAX_VALUES} values; replaced by their sums if the reduction completes
     * @param timeout the longest wait, {@code <= 0} for "do not wait"
     * @param unit    its unit
     * @return true if the reduction completed (and {@code values} holds the sums); false if it timed out (it stays
     *         pending, {@code values} unchanged)
     */
    public boolean allReduceSum(final long[] values, final long timeout, final TimeUnit unit) {
        return collective(Wire.SUM, checkValues(values), Waits.deadline(timeout, unit), null);
    }

    /**
     * Takes the element-wise maximum of {@code values} over every rank, in place (see {@link #allReduceSum(long[])}).
     *
     * @param values up to {@value #MAX_VALUES} values; replaced by their maxima
     */
    public void allReduceMax(final long[] values) {
        collective(Wire.MAX, checkValues(values), Waits.NO_DEADLINE, null);
    }

    /**
     * As {@link #allReduceMax(long[])}, giving up after {@code timeout} (see
     * {@link #allReduceSum(long[], long, TimeUnit)}).
     *
     * @param values  up to {@value #MAX_VALUES} values; replaced by their maxima if the reduction completes
     * @param timeout the longest wait, {@code <= 0} for "do not wait"
     * @param unit    its unit
     * @return true if the reduction completed; false if it timed out (it stays pending, {@code values} unchanged)
     */
    public boolean allReduceMax(final long[] values, final long timeout, final TimeUnit unit) {
        return collective(Wire.MAX, checkValues(values), Waits.deadline(timeout, unit), null);
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
     * @param value this rank's value
     * @return the maximum over every rank (collective; see {@link #allReduceSum(long[])})
     */
    public long allReduceMax(final long value) {
        final long[] v = {value};
        allReduceMax(v);
        return v[0];
    }

    /**
     * Checks that every rank passed the same {@code value} for a setting that must agree (collective: one exchange).
     *
     * @param what  names the setting, for the message
     * @param value this rank's value of the setting
     * @throws IllegalStateException naming the setting and each rank's value if they differ
     */
    public void checkSame(final String what, final long value) {
        Objects.requireNonNull(what, "what");
        collective(Wire.SAME, new long[] {value}, Waits.NO_DEADLINE, what);
    }

    /**
     * As {@link #checkSame(String, long)}, giving up after {@code timeout}.
     *
     * @param what    names the setting, for the message
     * @param value   this rank's value of the setting
     * @param timeout the longest wait, {@code <= 0} for "do not wait"
     * @param unit    its unit
     * @return true if every rank's value arrived (and they agree); false if it timed out (it stays pending: the
     *         next collective must be a {@code checkSame}, which completes this one)
     */
    public boolean checkSame(final String what, final long value, final long timeout, final TimeUnit unit) {
        Objects.requireNonNull(what, "what");
        return collective(Wire.SAME, new long[] {value}, Waits.deadline(timeout, unit), what);
    }

    private static long[] checkValues(final long[] values) {
        Objects.requireNonNull(values, "values");
        if (values.length > MAX_VALUES) {
            throw new IllegalArgumentException("a reduction takes at most " + MAX_VALUES + " values, got "
                + values.length);
        }
        return values;
    }

    /**
     * Makes one collective: sends this rank's contribution to every peer, waits for every peer's, combines.
     *
     * @param setting what {@link #checkSame} checks (null for the others)
     * @return false if {@code deadline} passed first (the collective stays pending)
     */
    private boolean collective(final int op, final long[] values, final long deadline, final String setting) {
        checkOpen();
        final String what = Wire.describe(op, values.length) + " of " + this;
        if (!lock(deadline, what)) {
            return false;
        }
        try {
            checkOpen();
            checkFailure();
            if (outOfStep != null) {
                throw new IllegalStateException(outOfStep);
            }
            Pending p = pending;
            if (p == null) {
                final long g = ++generation;
                p = new Pending(g, op, values, Wire.collective(message, rank, group, g, op, values), ranks);
                pending = p;
            } else if (p.op != op || p.count != values.length) {
                throw new IllegalStateException(Wire.describe(p.op, p.count) + " (collective #" + p.generation
                    + ") of " + this + " timed out or was interrupted and is still pending: call it again to complete "
                    + "it before " + Wire.describe(op, values.length));
            }
            for (int r = 0; r < ranks; r++) {
                if (r != rank && !p.sent[r]) {
                    if (!send(r, p.length, deadline, what)) {
                        return false;
                    }
                    p.sent[r] = true;
                }
            }
            if (!awaitAll(p.generation, deadline, what)) {
                return false;
            }
            pending = null;
            combine(p, values, setting);
            return true;
        } finally {
            collectiveLock.unlock();
        }
    }

    /** @return false if another thread's collective held the lock past {@code deadline} (nothing was sent) */
    private boolean lock(final long deadline, final String what) {
        try {
            if (deadline == Waits.NO_DEADLINE) {
                collectiveLock.lockInterruptibly();
                return true;
            }
            return collectiveLock.tryLock(Math.max(0, Waits.remaining(deadline)), TimeUnit.NANOSECONDS);
        } catch (final InterruptedException e) {
            throw Waits.interrupted(what);
        }
    }

    /**
     * Combines every rank's contribution to {@code p} into {@code values} (a differing call breaks the group; a
     * differing {@code checkSame} value is reported naming every rank's).
     */
    private void combine(final Pending p, final long[] values, final String setting) {
        final long g = p.generation;
        boolean same = true;
        for (int r = 0; r < ranks; r++) {
            if (r == rank) {
                continue;
            }
            if (state.op(r, g) != p.op || state.count(r, g) != p.count) {
                outOfStep = "collective #" + g + " differs across the ranks of " + this + ": rank " + rank + " made "
                    + Wire.describe(p.op, p.count) + ", rank " + r + " " + Wire.describe(state.op(r, g),
                    state.count(r, g)) + " (every rank must make the same collectives in the same order; the group "
                    + "is out of step for good)";
                throw new IllegalStateException(outOfStep);
            }
            same &= p.op != Wire.SAME || state.value(r, g, 0) == p.own[0];
        }
        if (!same) {
            final StringBuilder each = new StringBuilder();
            for (int r = 0; r < ranks; r++) {
                each.append(r == 0 ? "" : ", ").append("rank ").append(r).append(' ')
                    .append(r == rank ? p.own[0] : state.value(r, g, 0));
            }
            throw new IllegalStateException(setting + " differs across the ranks of " + this + ": " + each
                + " (every rank must use the same value)");
        }
        if (p.op != Wire.SUM && p.op != Wire.MAX) {
            return;
        }
        for (int i = 0; i < p.count; i++) {
            long result = p.own[i];
            for (int r = 0; r < ranks; r++) {
                if (r != rank) {
                    final long v = state.value(r, g, i);
                    result = p.op == Wire.SUM ? result + v : Math.max(result, v);
                }
            }
            values[i] = result;
        }
    }

    /** @return false if {@code deadline} passed before the publication to rank {@code to} took the message */
    private boolean send(final int to, final int length, final long deadline, final String what) {
        IdleStrategy idle = null;
        while (true) {
            final long result;
            synchronized (sendLock) {
                checkOpen();
                result = publications[to].offer(message, 0, length);
            }
            if (result > 0) {
                return true;
            }
            if (result == Publication.NOT_CONNECTED) {
                throw state.hasLeft(to) ? left(to, what) : new PeerFailedException(state.fail(to, "its receiver at "
                    + hosts.member(to).endpoint() + " is gone (the publication to it is no longer connected): the "
                    + "process ended or the network is down").exception);
            }
            if (result == Publication.CLOSED) {
                throw new IllegalStateException("the publication of " + this + " to rank " + to + " is closed");
            }
            if (result == Publication.MAX_POSITION_EXCEEDED) {
                throw new IllegalStateException("the publication of " + this + " to rank " + to + " reached its "
                    + "largest position (" + publications[to].maxPossiblePosition() + " bytes): close the group and "
                    + "join a new one");
            }
            checkFailure(); // BACK_PRESSURED or ADMIN_ACTION: try again, unless something else ends the wait
            if (Thread.interrupted()) {
                throw Waits.interrupted(what);
            }
            if (Waits.remaining(deadline) <= 0) {
                return false;
            }
            if (idle == null) {
                idle = backoff();
            }
            idle.idle();
        }
    }

    private boolean awaitAll(final long generation, final long deadline, final String what) {
        final IdleStrategy idle = backoff();
        for (int r = 0; r < ranks; r++) {
            while (r != rank && !state.arrived(r, generation)) {
                checkOpen();
                checkFailure();
                if (state.hasLeft(r) && !state.arrived(r, generation)) {
                    throw left(r, what); // its goodbye came after everything it sent: it will not come now
                }
                if (Thread.interrupted()) {
                    throw Waits.interrupted(what);
                }
                if (Waits.remaining(deadline) <= 0) {
                    return false;
                }
                idle.idle();
            }
            idle.reset();
        }
        return true;
    }

    private PeerFailedException left(final int r, final String what) {
        return new PeerFailedException(r, "left the group (closed it) while rank " + rank + " needs it for " + what);
    }

    private void checkFailure() {
        final GroupState.Failure f = state.failure();
        if (f != null) {
            throw new PeerFailedException(f.exception);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    /**
     * The one backoff of the group, for the receiving agent's duty cycle and for callers' waits: spin a little,
     * yield, then park up to a millisecond (nobody wakes a waiter; a millisecond is far below the heartbeat period).
     */
    private static IdleStrategy backoff() {
        return new BackoffIdleStrategy(64, 64, 1_000, 1_000_000);
    }

    // ---------------------------------------------------------------------------------------------- for HostTransport

    /** @return the state the receiver shares with waiting callers (failures, departures) */
    GroupState state() {
        return state;
    }

    /** @return the group's Aeron client */
    Aeron aeron() {
        return aeron;
    }

    /** @return the host file's fingerprint, in every message's header */
    long fingerprint() {
        return group;
    }

    /** @return the failure-detection bound */
    long peerTimeoutNanos() {
        return peerTimeoutNanos;
    }

    /** @return true once {@link #close()} began */
    boolean isClosed() {
        return closed;
    }

    /**
     * Attaches the group's host transport, which {@link #close()} closes first.
     *
     * @throws IllegalStateException if the group is closed or has a transport already
     */
    void attach(final HostTransport t) {
        synchronized (sendLock) {
            checkAttachable();
            transport = t;
        }
    }

    /** @throws IllegalStateException if the group is closed or has a transport already */
    void checkAttachable() {
        synchronized (sendLock) {
            checkOpen();
            if (transport != null) {
                throw new IllegalStateException(this + " has a host transport already (" + transport + "): a group "
                    + "carries one");
            }
        }
    }

    /** Detaches {@code t} (its close). */
    void detach(final HostTransport t) {
        synchronized (sendLock) {
            if (transport == t) {
                transport = null;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- closing

    /**
     * Leaves the group: its {@link HostTransport}, if one is attached, is closed first; then a goodbye to every peer,
     * acknowledged (see the class comment), then Aeron, the embedded driver and its directory go. Idempotent; never throws for the group's state (a peer that does not answer is
     * waited for at most the peer timeout). An interrupt does not cut the close short; the status is kept.
     */
    @Override
    public void close() {
        final HostTransport t;
        synchronized (sendLock) {
            t = transport;
        }
        if (t != null) {
            t.close(); // before the group's goodbye: the transport's close still needs the group's Aeron
        }
        synchronized (sendLock) { // no caller is inside an offer now, and none will start one
            if (closed) {
                return;
            }
            closed = true;
        }
        final boolean interrupted = Thread.interrupted(); // the waits below park: an interrupt would make them spin
        try {
            sayGoodbye();
        } finally {
            release();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void sayGoodbye() {
        final long deadline = Waits.deadline(peerTimeoutNanos, TimeUnit.NANOSECONDS);
        final GroupState.Failure failure = state.failure();
        final int failed = failure == null ? -1 : failure.rank(); // nothing goes to a failed rank: it may never take it
        final UnsafeBuffer bye = new UnsafeBuffer(new byte[Wire.HEADER_LENGTH]);
        final int length = Wire.header(bye, Wire.BYE, rank, group);
        final boolean[] told = new boolean[ranks];
        final IdleStrategy idle = backoff();
        for (int r = 0; r < ranks; r++) {
            if (r == rank || r == failed || state.hasLeft(r)) {
                continue;
            }
            long result;
            while ((result = publications[r].offer(bye, 0, length)) == Publication.BACK_PRESSURED
                || result == Publication.ADMIN_ACTION) {
                if (Waits.remaining(deadline) <= 0) {
                    break;
                }
                idle.idle();
            }
            told[r] = result > 0;
        }
        idle.reset();
        // Wait for the acknowledgements (each proves the peer took everything sent before the goodbye); a peer that
        // left meanwhile needs nothing more from this rank; after a failure no collective completes, so none waits.
        for (int r = 0; r < ranks; r++) {
            while (told[r] && !state.hasAcked(r) && !state.hasLeft(r) && state.failure() == null
                && Waits.remaining(deadline) > 0) {
                idle.idle();
            }
        }
        // Then for the driver to have sent what was offered (the acknowledgements of the peers' goodbyes included).
        final CountersReader counters = aeron.countersReader();
        for (int r = 0; r < ranks; r++) {
            if (r == rank || r == failed) {
                continue;
            }
            final int id = counters.findByTypeIdAndRegistrationId(AeronCounters.DRIVER_SENDER_POSITION_TYPE_ID,
                publications[r].registrationId());
            while (id != CountersReader.NULL_COUNTER_ID && publications[r].isConnected()
                && counters.getCounterValue(id) < publications[r].position() && Waits.remaining(deadline) > 0) {
                idle.idle();
            }
        }
    }

    /**
     * Ends this rank as a crash would, without a goodbye: for the tests of what the other ranks then see (its
     * connection closes under them).
     */
    void abandonForTest() {
        synchronized (sendLock) {
            closed = true;
        }
        release();
    }

    /** Stops the agent, closes Aeron and the driver, deletes the driver's directory (the group is marked closed). */
    private void release() {
        try {
            if (agent != null) {
                agent.close();
            }
        } finally {
            CloseHelper.quietCloseAll(aeron, driver);
            if (driverDirectory != null) {
                World.deleteDirectory(driverDirectory);
            }
        }
    }

    @Override
    public String toString() {
        return "HostGroup{rank " + rank + " of " + ranks + ", " + hosts.source() + "}";
    }

    // ---------------------------------------------------------------------------------------------- builder

    /** Validating builder; see {@link HostGroup#builder}. Not thread-safe. */
    public static final class Builder {
        private final HostFile hosts;
        private final int rank;
        private long joinTimeoutNanos = TimeUnit.SECONDS.toNanos(60);
        private long peerTimeoutNanos = TimeUnit.SECONDS.toNanos(5);
        private Path aeronDirectory;

        private Builder(final HostFile hosts, final int rank) {
            this.hosts = Objects.requireNonNull(hosts, "hosts");
            if (rank < 0 || rank >= hosts.ranks()) {
                throw new IllegalArgumentException("rank " + rank + " is not in host file " + hosts.source()
                    + " (ranks 0.." + (hosts.ranks() - 1) + ")");
            }
            this.rank = rank;
        }

        /**
         * @param timeout how long {@link #join()} waits for every rank, 1 ms .. 1 h; past it the join fails naming
         *                the ranks that never came
         * @param unit    its unit
         * @return this builder
         */
        public Builder joinTimeout(final long timeout, final TimeUnit unit) {
            this.joinTimeoutNanos = checkDuration("joinTimeout", timeout, unit, 1, TimeUnit.HOURS.toNanos(1));
            return this;
        }

        /**
         * @param timeout the failure-detection bound: a peer silent for longer has failed (a peer whose connection
         *                closes is noticed at the next check, a tenth of this at most, once Aeron reports its image
         *                gone); 100 ms .. 10 min. It also bounds how long {@link HostGroup#close()} waits for the
         *                peers' acknowledgements.
         * @param unit    its unit
         * @return this builder
         */
        public Builder peerTimeout(final long timeout, final TimeUnit unit) {
            this.peerTimeoutNanos = checkDuration("peerTimeout", timeout, unit, 100, TimeUnit.MINUTES.toNanos(10));
            return this;
        }

        /**
         * @param directory the Aeron directory of an external media driver to use instead of an embedded one (it
         *                  must be running: the directory holds its {@code cnc.dat})
         * @return this builder
         */
        public Builder aeronDirectory(final Path directory) {
            Objects.requireNonNull(directory, "directory");
            if (!Files.isRegularFile(directory.resolve(CncFileDescriptor.CNC_FILE))) {
                throw new IllegalArgumentException("no Aeron media driver runs in " + directory + " (no "
                    + CncFileDescriptor.CNC_FILE + " there): start one, or leave the directory unset for an embedded "
                    + "driver");
            }
            this.aeronDirectory = directory;
            return this;
        }

        private static long checkDuration(final String what, final long timeout, final TimeUnit unit,
            final long minMillis, final long max) {
            final long nanos = unit.toNanos(timeout);
            if (nanos < TimeUnit.MILLISECONDS.toNanos(minMillis) || nanos > max) {
                throw new IllegalArgumentException(what + " must be in " + minMillis + " ms.."
                    + TimeUnit.NANOSECONDS.toSeconds(max) + " s, was " + timeout + " " + unit);
            }
            return nanos;
        }

        /**
         * Starts this rank (driver, Aeron, subscription, publications, the receiving agent) and waits until every
         * rank is connected. Interruptible; the join timeout is its timed form.
         *
         * @return the joined group
         * @throws IllegalStateException    naming the ranks that did not come within the join timeout, or this
         *                                  rank's endpoint when it cannot be bound
         * @throws PeerFailedException      if a rank failed while joining
         * @throws InterruptedWaitException if interrupted (nothing is left running)
         */
        public HostGroup join() {
            return start(this);
        }
    }
}
