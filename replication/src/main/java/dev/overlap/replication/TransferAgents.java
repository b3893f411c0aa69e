package dev.overlap.replication;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The decoupled transfer agents of one region: {@code k} threads that copy ready chunks to the peers, either by
 * polling the producers' {@link ReadyBitmap ready bitmaps} ({@link TransferMode#POLLING}) or by taking the chunks
 * that readiness triggered from a queue ({@link TransferMode#TRIGGERED}). Idle agents use the idle strategy, and a
 * triggered agent that stays idle parks until a trigger wakes it, so idle agents do not steal cores from compute.
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
    private volatile boolean running = true;

    TransferAgents(final ReplicatedRegion region, final TransferMode mode, final int threads,
        final ReadyBitmap[] bitmaps, final int queueCapacity, final Supplier<IdleStrategy> idle, final String name) {
        this.region = region;
        this.mode = mode;
        this.bitmaps = bitmaps;
        this.queue = mode == TransferMode.TRIGGERED ? new ManyToManyConcurrentArrayQueue<>(queueCapacity) : null;
        this.agents = new Agent[threads];
        for (int i = 0; i < threads; i++) {
            agents[i] = new Agent(i, idle.get());
            final Thread t = new Thread(agents[i], name + "-xfer" + i);
            t.setDaemon(true);
            agents[i].thread = t;
        }
        for (final Agent a : agents) {
            a.thread.start();
        }
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

    private final class Agent implements Runnable {
        private final int index;
        private final IdleStrategy idle;
        volatile boolean parked;
        Thread thread;
        private int scan;

        Agent(final int index, final IdleStrategy idle) {
            this.index = index;
            this.idle = idle;
        }

        @Override
        public void run() {
            long idleSince = 0;
            while (running) {
                final int work = mode == TransferMode.POLLING ? pollBitmaps() : drainQueue();
                if (work > 0) {
                    idle.reset();
                    idleSince = 0;
                    continue;
                }
                if (queue != null) {
                    final long now = System.nanoTime();
                    if (idleSince == 0) {
                        idleSince = now;
                    } else if (now - idleSince > PARK_AFTER_NANOS) {
                        parked = true;
                        if (queue.isEmpty() && running) {
                            LockSupport.park(this);
                        }
                        parked = false;
                        continue;
                    }
                }
                idle.idle();
            }
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

    @Override
    public void close() {
        running = false;
        boolean interrupted = false;
        for (final Agent a : agents) {
            LockSupport.unpark(a.thread);
            while (a.thread.isAlive()) {
                try {
                    a.thread.join();
                } catch (final InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
