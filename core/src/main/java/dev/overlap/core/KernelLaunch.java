package dev.overlap.core;

import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Cache-line padding before the block-claim counter. */
abstract class LaunchPadBefore {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** The counter workers claim blocks from. */
abstract class LaunchClaim extends LaunchPadBefore {
    volatile int nextBlock;
}

/** Padding between the claim counter and the completion counter. */
abstract class LaunchPadMiddle extends LaunchClaim {
    long p10, p11, p12, p13, p14, p15, p16, p17;
    long p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** Blocks finished (discrete) or workers that left (persistent). */
abstract class LaunchFinished extends LaunchPadMiddle {
    volatile int finished;
}

/** Padding after the completion counter. */
abstract class LaunchPadAfter extends LaunchFinished {
    long p20, p21, p22, p23, p24, p25, p26, p27;
    long p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

/**
 * A kernel launch on one device and its completion handle. Launches on a device form a stream: a launch starts
 * only after the previous one has completed.
 *
 * <p>Discrete launches hand out blocks with one {@code getAndAdd} per block on a padded claim counter; each worker
 * adds its count of finished blocks once, and the worker whose addition reaches {@code gridSize} completes the
 * launch. Memory ordering: every write of every block happens-before {@link #join()} returns (the completion
 * counter is a chain of volatile read-modify-writes, the state a volatile write read by the joiner).
 *
 * <p>A block that throws fails the launch: the first failure is kept (with its block index), later blocks are
 * skipped, and the device runs the next launch normally. Thread-safety: all methods may be called from any thread.
 */
public final class KernelLaunch extends LaunchPadAfter {
    static final int RUNNING = 0;
    static final int COMPLETED = 1;
    static final int FAILED = 2;

    private static final VarHandle NEXT_BLOCK;
    private static final VarHandle FINISHED;
    private static final VarHandle WAITERS;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT_BLOCK = lookup.findVarHandle(LaunchClaim.class, "nextBlock", int.class);
            FINISHED = lookup.findVarHandle(LaunchFinished.class, "finished", int.class);
            WAITERS = lookup.findVarHandle(KernelLaunch.class, "waiters", Waiter.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Waiter DONE_WAITERS = new Waiter(null, null);
    private static final long JOIN_SPIN_NANOS = 20_000;
    private static final long JOIN_YIELD_NANOS = 50_000;

    private static final class Waiter {
        final Thread thread;
        final Waiter next;

        Waiter(final Thread thread, final Waiter next) {
            this.thread = thread;
            this.next = next;
        }
    }

    private final Device device;
    private final long sequence;
    private final int gridSize;
    private final Kernel kernel;
    private final PersistentKernel persistent;
    private final boolean poison;

    volatile KernelLaunch next;
    private volatile int state;
    private volatile boolean aborted;
    private volatile boolean stopRequested;
    private volatile KernelFailedException failure;
    private volatile Waiter waiters;

    private KernelLaunch(final Device device, final long sequence, final int gridSize, final Kernel kernel,
        final PersistentKernel persistent, final boolean poison) {
        this.device = device;
        this.sequence = sequence;
        this.gridSize = gridSize;
        this.kernel = kernel;
        this.persistent = persistent;
        this.poison = poison;
    }

    static KernelLaunch discrete(final Device device, final long sequence, final int gridSize, final Kernel kernel) {
        return new KernelLaunch(device, sequence, gridSize, kernel, null, false);
    }

    static KernelLaunch persistent(final Device device, final long sequence, final PersistentKernel kernel) {
        return new KernelLaunch(device, sequence, 0, null, kernel, false);
    }

    static KernelLaunch sentinel(final Device device) {
        final KernelLaunch s = new KernelLaunch(device, 0, 0, null, null, false);
        s.state = COMPLETED;
        s.waiters = DONE_WAITERS;
        return s;
    }

    static KernelLaunch poison(final Device device, final long sequence) {
        return new KernelLaunch(device, sequence, 0, null, null, true);
    }

    boolean isPoison() {
        return poison;
    }

    /** @return the device this launch runs on */
    public Device device() {
        return device;
    }

    /** @return position of this launch in its device's stream (1 = first) */
    public long sequence() {
        return sequence;
    }

    /** @return number of blocks, or 0 for a persistent launch */
    public int gridSize() {
        return gridSize;
    }

    /** @return true for a persistent launch */
    public boolean isPersistent() {
        return persistent != null;
    }

    /** @return true once the launch has completed, successfully or not */
    public boolean isDone() {
        return state != RUNNING;
    }

    /** @return true once the launch has failed */
    public boolean isFailed() {
        return state == FAILED;
    }

    /**
     * Asks a persistent launch to stop: every worker leaves its loop after its current poll. No effect on a
     * discrete launch. Idempotent.
     */
    public void stop() {
        if (persistent != null && !stopRequested) {
            stopRequested = true;
            device.wakeWorkers();
        }
    }

    /**
     * Waits until the launch has completed: spins briefly, then parks (woken by the completing worker).
     *
     * @throws KernelFailedException if a block or poll threw
     */
    public void join() {
        if (state == RUNNING) {
            await(0L);
        }
        throwIfFailed();
    }

    /**
     * @param timeout longest wait
     * @param unit    its unit
     * @return true if the launch completed within the timeout
     * @throws KernelFailedException if it completed with a failure
     */
    public boolean join(final long timeout, final TimeUnit unit) {
        if (state == RUNNING) {
            await(Math.max(1L, unit.toNanos(timeout)));
        }
        if (state == RUNNING) {
            return false;
        }
        throwIfFailed();
        return true;
    }

    private void throwIfFailed() {
        if (state == FAILED) {
            throw failure;
        }
    }

    private void await(final long timeoutNanos) {
        final long begin = System.nanoTime();
        final long deadline = timeoutNanos == 0 ? 0 : begin + timeoutNanos;
        // Spin ~20 us, yield until ~50 us, then park until the completing worker unparks this thread.
        long waited = 0;
        for (int i = 1; state == RUNNING; i++) {
            if (waited <= JOIN_SPIN_NANOS) {
                Thread.onSpinWait();
                if ((i & 63) == 0) {
                    Thread.yield();
                    waited = System.nanoTime() - begin;
                }
                continue;
            }
            Thread.yield();
            waited = System.nanoTime() - begin;
            if (waited > JOIN_YIELD_NANOS || (deadline != 0 && waited > timeoutNanos)) {
                break;
            }
        }
        while (state == RUNNING) {
            final Waiter head = waiters;
            if (head == DONE_WAITERS) {
                return;
            }
            final Waiter me = new Waiter(Thread.currentThread(), head);
            if (!WAITERS.compareAndSet(this, head, me)) {
                continue;
            }
            while (state == RUNNING) {
                if (deadline == 0) {
                    LockSupport.park(this);
                } else {
                    final long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    LockSupport.parkNanos(this, left);
                }
            }
        }
    }

    /** Runs this launch's share on the calling worker. */
    void execute(final WorkerContext ctx, final IdleStrategy idle) {
        ctx.launch = this;
        if (persistent != null) {
            runPersistent(ctx, idle);
        } else if (kernel != null) {
            runBlocks(ctx);
        }
    }

    private void runBlocks(final WorkerContext ctx) {
        final int grid = gridSize;
        if (nextBlock >= grid) {
            return;
        }
        final Kernel k = kernel;
        int done = 0;
        int block;
        while ((block = (int)NEXT_BLOCK.getAndAdd(this, 1)) < grid) {
            if (!aborted) {
                try {
                    k.run(ctx, block);
                } catch (final Throwable t) {
                    fail(block, ctx.workerIndex(), t);
                }
            }
            done++;
        }
        if (done > 0 && (int)FINISHED.getAndAdd(this, done) + done == grid) {
            complete();
        }
    }

    private void runPersistent(final WorkerContext ctx, final IdleStrategy idle) {
        final PersistentKernel k = persistent;
        idle.reset();
        try {
            while (!stopRequested) {
                idle.idle(k.poll(ctx));
            }
        } catch (final Throwable t) {
            fail(-1, ctx.workerIndex(), t);
            stop();
        }
        if ((int)FINISHED.getAndAdd(this, 1) + 1 == device.workerCount()) {
            complete();
        }
    }

    private synchronized void fail(final int block, final int worker, final Throwable cause) {
        aborted = true;
        if (failure == null) {
            final String where = block >= 0
                ? "block " + block + " of " + gridSize + " (worker " + worker + ")"
                : "worker " + worker + " of a persistent kernel";
            failure = new KernelFailedException("kernel launch #" + sequence + " on dev" + device.id() + " failed in "
                + where + ": " + cause, device.id(), block, cause);
        } else {
            failure.addSuppressed(cause);
        }
    }

    /** Fails a launch that can never run (its device closed first). */
    void reject(final String reason) {
        failure = new KernelFailedException(reason, device.id(), -1, null);
        finish(FAILED);
    }

    void complete() {
        finish(failure == null ? COMPLETED : FAILED);
        device.wakeWorkers();
    }

    private void finish(final int finalState) {
        state = finalState;
        Waiter w = (Waiter)WAITERS.getAndSet(this, DONE_WAITERS);
        while (w != null && w != DONE_WAITERS) {
            LockSupport.unpark(w.thread);
            w = w.next;
        }
    }

    @Override
    public String toString() {
        return "KernelLaunch{dev" + device.id() + " #" + sequence + (persistent != null ? " persistent" : " grid=" + gridSize)
            + ", " + (state == RUNNING ? "running" : state == COMPLETED ? "completed" : "failed") + "}";
    }
}
