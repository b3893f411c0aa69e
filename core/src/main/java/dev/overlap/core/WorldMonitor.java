package dev.overlap.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One job: a world's failure detector. A daemon thread that, every tenth of the peer timeout (at most every 100 ms),
 * writes this rank's heartbeat into the control segment and checks every peer that joined and has not left: a
 * process that no longer runs (the pid is gone, or belongs to a process started at another time) has failed; so has
 * one whose heartbeat is older than the peer timeout (hung, stopped, or its monitor cannot run). The first failure
 * found anywhere is recorded in the segment and adopted by every rank ({@link World#fail}).
 *
 * <p>Thread-safety: started by the join, stopped (and joined) by the leave; the thread itself is the only one that
 * writes this rank's heartbeat.
 */
final class WorldMonitor implements Runnable {
    private final World world;
    private final WorldSegment segment;
    private final long periodNanos;
    private final long peerTimeoutMillis;
    private final Thread thread;
    private volatile boolean running = true;

    private WorldMonitor(final World world) {
        this.world = world;
        this.segment = world.segment();
        final long timeout = world.config().peerTimeoutNanos();
        this.periodNanos = Math.min(TimeUnit.MILLISECONDS.toNanos(100), timeout / 10);
        this.peerTimeoutMillis = TimeUnit.NANOSECONDS.toMillis(timeout);
        this.thread = new Thread(this, "overlap-world-r" + world.rank() + "-monitor");
        thread.setDaemon(true);
    }

    static WorldMonitor start(final World world) {
        final WorldMonitor m = new WorldMonitor(world);
        m.thread.start();
        return m;
    }

    @Override
    public void run() {
        while (running) {
            check(System.currentTimeMillis());
            LockSupport.parkNanos(this, periodNanos);
        }
    }

    /** One round: beat, then look at every peer (and at a failure another rank recorded). */
    void check(final long nowMillis) {
        segment.heartbeat(world.rank(), nowMillis);
        if (world.failure() != null) {
            return;
        }
        if (world.adoptRecorded() != null) {
            return;
        }
        for (int r = 0; r < world.ranks(); r++) {
            if (r == world.rank()) {
                continue;
            }
            final int state = segment.state(r);
            if (state != WorldSegment.JOINING && state != WorldSegment.READY) {
                continue; // not yet joined, or left in order
            }
            final long pid = segment.pid(r);
            if (!ProcessLiveness.isAlive(pid, segment.start(r))) {
                if (segment.state(r) == WorldSegment.LEFT) {
                    continue; // it left, then exited, between the two reads
                }
                world.fail(r, "its process " + pid + " exited without leaving the world (killed, crashed, or "
                    + "ended without closing its mesh)");
                return;
            }
            final long silent = nowMillis - segment.heartbeat(r);
            if (silent > peerTimeoutMillis) {
                world.fail(r, "process " + pid + " wrote no heartbeat for " + silent + " ms (limit "
                    + peerTimeoutMillis + " ms): hung or stopped");
                return;
            }
        }
    }

    /** Stops the thread and waits for it (uninterruptibly; the interrupt status is kept). */
    void stop() {
        running = false;
        LockSupport.unpark(thread);
        if (Waits.joinUninterruptibly(thread)) {
            Thread.currentThread().interrupt();
        }
    }
}
