package dev.overlap.core;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * One worker thread of a device: follows the device's launch stream, runs its share of each launch, and waits for
 * the next by spinning briefly, yielding, then parking until woken by the launcher or the completing worker. The
 * device's idle strategy is for persistent kernels' empty polls.
 *
 * <p>A plain {@link Runnable} on a thread of the mesh's {@code ThreadFactory}, not an Agrona {@code Agent}: an agent's
 * runner idles between duty cycles with an idle strategy, so a launch would wait for the worker's next poll (or pay
 * for spinning), while here the launcher unparks the waiting worker directly and the worker parks only when idle.
 *
 * <p>Lost wake-ups are impossible: the worker publishes {@code parked} (volatile write) and then re-reads the
 * stream (volatile read); a waker publishes the stream change (volatile write) and then reads {@code parked}
 * (volatile read). Sequential consistency of volatiles means at least one side sees the other's write.
 */
final class DeviceWorker implements Runnable {
    private final WorkerContext ctx;
    private final IdleStrategy idle;
    private final long parkAfterNanos;
    private final long spinNanos;
    volatile boolean parked;
    /** The thread that runs this worker (the mesh's thread factory's); set before it starts. */
    Thread thread;
    /** The default thread name, {@code <mesh>-dev<d>-w<w>}: what {@link #toString()} answers a thread factory. */
    private final String name;
    /** The last launch this worker joined; starts at the stream's sentinel. */
    private KernelLaunch cursor;

    DeviceWorker(final WorkerContext ctx, final IdleStrategy idle, final long parkAfterNanos,
        final KernelLaunch sentinel, final boolean spin, final String name) {
        this.cursor = sentinel;
        this.name = name;
        this.ctx = ctx;
        this.idle = idle;
        this.parkAfterNanos = parkAfterNanos;
        this.spinNanos = spin ? parkAfterNanos / 4 : 0;
    }

    @Override
    public void run() {
        WorkerThread.enter(ctx.device());
        try {
            follow();
        } finally {
            WorkerThread.leave();
        }
    }

    private void follow() {
        while (true) {
            final KernelLaunch next = awaitNext(cursor);
            if (next.isPoison()) {
                return;
            }
            cursor = next;
            next.execute(ctx, idle);
            // an interrupt is for the kernel that was running (the mesh's close interrupts blocked kernels); left
            // set, it would make every later park return at once
            Thread.interrupted();
        }
    }

    /**
     * Waits until the launch after {@code cursor} exists and {@code cursor} has completed (stream order): spins for
     * up to a quarter of the park budget (not at all when oversubscribed), then yields, then parks until a launcher
     * or the completing worker wakes it. Every blocking wait is wake-able: nothing sleeps for a fixed time.
     */
    private KernelLaunch awaitNext(final KernelLaunch cursor) {
        KernelLaunch next = cursor.next;
        if (next != null && cursor.isDone()) {
            return next;
        }
        long start = System.nanoTime();
        long waited = 0;
        for (int polls = 1;; polls++) {
            next = cursor.next;
            if (next != null && cursor.isDone()) {
                return next;
            }
            if (waited < spinNanos) {
                Thread.onSpinWait();
                if ((polls & 63) == 0) {
                    // a spinner must not starve the thread it waits for if that thread shares its core
                    Thread.yield();
                    waited = System.nanoTime() - start;
                }
            } else if (waited < parkAfterNanos) {
                Thread.yield();
                waited = System.nanoTime() - start;
            } else {
                parked = true;
                next = cursor.next;
                if (next == null || !cursor.isDone()) {
                    LockSupport.park(this);
                }
                parked = false;
                start = System.nanoTime();
                waited = 0;
            }
        }
    }

    void wake() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** @return the worker's default thread name, {@code <mesh>-dev<d>-w<w>} (for a thread factory) */
    @Override
    public String toString() {
        return name;
    }
}
