package dev.overlap.core;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * One worker thread of a device: follows the device's launch stream, runs its share of each launch, and waits for
 * the next with the idle strategy, then parks (woken by the launcher or the completing worker).
 *
 * <p>Lost wake-ups are impossible: the worker publishes {@code parked} (volatile write) and then re-reads the
 * stream (volatile read); a waker publishes the stream change (volatile write) and then reads {@code parked}
 * (volatile read). Sequential consistency of volatiles means at least one side sees the other's write.
 */
final class DeviceWorker implements Runnable {
    private final WorkerContext ctx;
    private final IdleStrategy idle;
    private final long parkAfterNanos;
    volatile boolean parked;
    Thread thread;
    /** The last launch this worker joined; starts at the stream's sentinel. */
    private KernelLaunch cursor;

    DeviceWorker(final WorkerContext ctx, final IdleStrategy idle, final long parkAfterNanos,
        final KernelLaunch sentinel) {
        this.cursor = sentinel;
        this.ctx = ctx;
        this.idle = idle;
        this.parkAfterNanos = parkAfterNanos;
    }

    @Override
    public void run() {
        while (true) {
            final KernelLaunch next = awaitNext(cursor);
            if (next.isPoison()) {
                return;
            }
            cursor = next;
            next.execute(ctx, idle);
        }
    }

    /** Waits until the launch after {@code cursor} exists and {@code cursor} has completed (stream order). */
    private KernelLaunch awaitNext(final KernelLaunch cursor) {
        KernelLaunch next = cursor.next;
        if (next != null && cursor.isDone()) {
            return next;
        }
        idle.reset();
        long start = 0;
        while (true) {
            next = cursor.next;
            if (next != null && cursor.isDone()) {
                return next;
            }
            if (start == 0) {
                start = System.nanoTime();
            } else if (System.nanoTime() - start > parkAfterNanos) {
                parked = true;
                next = cursor.next;
                if (next == null || !cursor.isDone()) {
                    LockSupport.park(this);
                }
                parked = false;
                continue;
            }
            idle.idle();
        }
    }

    void wake() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }
}
