package dev.overlap.replication;

import dev.overlap.core.AgentThread;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The decoupled transfer agents of one region: {@code k} Agrona {@link org.agrona.concurrent.Agent agents} that copy
 * ready chunks to the peers, either by polling the producers' {@link ReadyBitmap ready bitmaps}
 * ({@link TransferMode#POLLING}) or by taking the chunks that readiness triggered from a queue
 * ({@link TransferMode#TRIGGERED}). By default each runs under an {@link AgentRunner} on a thread of the region's
 * {@link ThreadFactory} (default: a daemon thread named {@code <mesh>-xfer<i>}); its idle strategy wraps the region's:
 * a triggered agent that stays idle past {@value #PARK_AFTER_NANOS} ns parks until a trigger wakes it, so idle agents
 * do not steal cores from compute. Without threads ({@link ReplicatedRegion.Builder#transferAgentsWithoutThreads()})
 * the agents are the user's to run, under their own {@link AgentRunner} or {@code AgentInvoker} (they never park
 * then: the user's idle strategy idles them).
 *
 * <p><b>Close.</b> {@link #close()} ends every agent: with runners it wakes and joins their threads; without, it
 * waits until no agent is inside {@code doWork()} (a Dekker handshake: an agent announces itself, then reads
 * {@code running}; the close clears {@code running}, then reads the announcements; both volatile), after which an
 * agent's {@code doWork()} throws {@link AgentTerminationException} (ending its runner or invoker) without touching
 * the region's memory. An agent inside a copy finishes the copy first, so the wait is short.
 *
 * <p>Thread-safety: {@link #submit} from any thread (the chunks' completing workers); each agent is driven by one
 * thread at a time; {@link #close()} by the region's host thread.
 */
final class TransferAgents implements AutoCloseable {
    /** One copy job: a (device, chunk) pair, preallocated so triggering allocates nothing. */
    static final class ChunkJob {
        final int device;
        final int chunk;

        ChunkJob(final int device, final int chunk) {
            this.device = device;
            this.chunk = chunk;
        }
    }

    private static final long PARK_AFTER_NANOS = 200_000;

    private final ReplicatedRegion region;
    private final TransferMode mode;
    private final ReadyBitmap[] bitmaps;
    private final ManyToManyConcurrentArrayQueue<ChunkJob> queue;
    private final Agent[] agents;
    /** One per agent, or null when the user runs the agents. */
    private final AgentThread[] runners;
    private volatile boolean running = true;

    /** Agents on daemon threads named {@code <name>-xfer<i>}, errors to standard error. */
    TransferAgents(final ReplicatedRegion region, final TransferMode mode, final int threads,
        final ReadyBitmap[] bitmaps, final int queueCapacity, final Supplier<IdleStrategy> idle, final String name) {
        this(region, mode, threads, bitmaps, queueCapacity, idle, name, null, true, ReplicatedRegion::printTransferError);
    }

    /**
     * @param factory     the user's thread factory, or null for daemon threads named {@code <name>-xfer<i>}
     * @param withThreads false: no runner, the user runs {@link #agents()}
     * @throws IllegalStateException if the factory returns null or a started thread (the agents started so far are
     *                               closed)
     */
    TransferAgents(final ReplicatedRegion region, final TransferMode mode, final int threads,
        final ReadyBitmap[] bitmaps, final int queueCapacity, final Supplier<IdleStrategy> idle, final String name,
        final ThreadFactory factory, final boolean withThreads, final ErrorHandler errors) {
        this.region = region;
        this.mode = mode;
        this.bitmaps = bitmaps;
        this.queue = mode == TransferMode.TRIGGERED ? new ManyToManyConcurrentArrayQueue<>(queueCapacity) : null;
        this.agents = new Agent[threads];
        for (int i = 0; i < threads; i++) {
            agents[i] = new Agent(i, name + "-xfer" + i);
        }
        this.runners = withThreads ? new AgentThread[threads] : null;
        if (withThreads) {
            try {
                for (int i = 0; i < threads; i++) {
                    final Agent a = agents[i];
                    runners[i] = AgentThread.start(a, new Parking(a, idle.get()), errors, factory, a.roleName());
                }
            } catch (final RuntimeException | Error e) {
                close();
                throw e;
            }
        }
    }

    /** @return the agents, for the user to run when the region has no transfer threads (immutable) */
    List<org.agrona.concurrent.Agent> agents() {
        final List<org.agrona.concurrent.Agent> list = new ArrayList<>(agents.length);
        Collections.addAll(list, agents);
        return Collections.unmodifiableList(list);
    }

    /** Hands a triggered chunk to the agents; never fails: the queue holds every chunk of an iteration. */
    void submit(final ChunkJob job) {
        if (!queue.offer(job)) {
            throw new IllegalStateException("transfer queue overflow: more chunks in flight than the region has");
        }
        for (final Agent a : agents) {
            if (a.parked) {
                LockSupport.unpark(a.thread);
                return;
            }
        }
    }

    /** One transfer agent: a duty cycle of copies. */
    private final class Agent implements org.agrona.concurrent.Agent {
        private final int index;
        private final String roleName;
        /** True while parked (or about to park) in {@link Parking}; read by {@link #submit}. */
        volatile boolean parked;
        /** True while {@link #doWork()} runs past its {@code running} check (see {@link TransferAgents#close()}). */
        volatile boolean inDutyCycle;
        /** The thread running the agent under a runner (set in {@link #onStart()}), for {@link #submit}'s unpark. */
        volatile Thread thread;
        private int scan;

        Agent(final int index, final String roleName) {
            this.index = index;
            this.roleName = roleName;
        }

        @Override
        public void onStart() {
            thread = Thread.currentThread();
        }

        /**
         * @throws AgentTerminationException once the region's transfers are closed: its memory may be freed
         */
        @Override
        public int doWork() {
            inDutyCycle = true;
            try {
                if (!running) {
                    throw new AgentTerminationException(roleName + ": the region's transfers are closed");
                }
                return mode == TransferMode.POLLING ? pollBitmaps() : drainQueue();
            } finally {
                inDutyCycle = false;
            }
        }

        @Override
        public String roleName() {
            return roleName;
        }

        private int pollBitmaps() {
            int copied = 0;
            for (int d = 0; d < bitmaps.length; d++) {
                final ReadyBitmap bitmap = bitmaps[d];
                if (bitmap == null) {
                    continue;
                }
                int chunk;
                while ((chunk = bitmap.claim(scan + index)) >= 0) {
                    scan = chunk >>> 6;
                    region.copyChunk(d, chunk);
                    copied++;
                }
            }
            return copied;
        }

        private int drainQueue() {
            int copied = 0;
            ChunkJob job;
            while ((job = queue.poll()) != null) {
                region.copyChunk(job.device, job.chunk);
                copied++;
            }
            return copied;
        }
    }

    /**
     * A runner's idle strategy: the region's, and for a triggered agent, parking once it has idled past
     * {@value #PARK_AFTER_NANOS} ns, until {@link #submit} or the close wakes it. No lost wake-up: the agent publishes
     * {@code parked} and then re-reads the queue; a submitter publishes the job and then reads {@code parked}.
     */
    private final class Parking implements IdleStrategy {
        private final Agent agent;
        private final IdleStrategy idle;
        private long idleSince;

        Parking(final Agent agent, final IdleStrategy idle) {
            this.agent = agent;
            this.idle = idle;
        }

        @Override
        public void idle(final int workCount) {
            if (workCount > 0) {
                reset();
                return;
            }
            idle();
        }

        @Override
        public void idle() {
            if (queue != null) {
                final long now = System.nanoTime();
                if (idleSince == 0) {
                    idleSince = now;
                } else if (now - idleSince > PARK_AFTER_NANOS) {
                    agent.parked = true;
                    if (queue.isEmpty() && running) {
                        LockSupport.park(this);
                    }
                    agent.parked = false;
                    return;
                }
            }
            idle.idle();
        }

        @Override
        public void reset() {
            idleSince = 0;
            idle.reset();
        }
    }

    /**
     * Ends every agent: clears {@code running}, then wakes and joins the runners' threads, or, for agents the user
     * runs, waits until none is inside {@code doWork()}. Idempotent.
     */
    @Override
    public void close() {
        running = false;
        if (runners != null) {
            for (int i = 0; i < agents.length; i++) {
                final Thread t = agents[i].thread;
                if (t != null) {
                    LockSupport.unpark(t);
                }
                if (runners[i] != null) {
                    runners[i].close();
                }
            }
        }
        for (final Agent a : agents) {
            while (a.inDutyCycle) { // a copy in progress finishes; later duty cycles see !running
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }
}
