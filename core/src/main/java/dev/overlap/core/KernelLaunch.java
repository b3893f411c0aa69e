package dev.overlap.core;

import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * The workers' barrier of a persistent launch ({@link KernelLaunch#syncWorkers}): arrivals, the generation and the
 * workers parked in it.
 */
abstract class LaunchBarrier extends LaunchPadAfter {
    volatile int barrierArrived;
    volatile int barrierGeneration;
    volatile int barrierSleepers;
}

/** Padding after the barrier. */
abstract class LaunchPadEnd extends LaunchBarrier {
    long p30, p31, p32, p33, p34, p35, p36, p37;
    long p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
}

/**
 * A kernel launch on one device and its completion handle. Launches on a device form a stream: a launch starts
 * only after the previous one has completed.
 *
 * <p>Discrete launches hand out blocks with one {@code getAndAdd} per block on a padded claim counter; each worker
 * adds its count of finished blocks once, and the worker whose addition reaches {@code gridSize} completes the
 * launch. Memory ordering: every write of every block happens-before {@link #join()} (and {@link #get()}) returns
 * (the completion counter is a chain of volatile read-modify-writes, the state a volatile write read by the joiner).
 *
 * <p>A block that throws fails the launch: the first failure is kept (with its block index), later blocks are
 * skipped, and the device runs the next launch normally. A failure is reported once: to the caller of
 * {@link #join()} / {@link #get()} that observes it, or, if nobody does, by the device's next
 * {@link Device#synchronize()} and by {@link Mesh#close()}.
 *
 * <p><b>Waiting.</b> {@link #join()} spins for a few microseconds, yields, then parks until the completing worker
 * unparks it: a long wait costs no CPU. Every wait has a timed form ({@link #join(long, TimeUnit)},
 * {@link #get(long, TimeUnit)}) and answers an interrupt: {@code join} with {@link InterruptedWaitException}
 * (interrupt status kept), the {@link Future} methods with {@link InterruptedException}; the launch itself goes on.
 * A worker of this launch's device that waits for it gets an {@link IllegalStateException} at once instead of a
 * deadlock (the launch cannot run before the worker's own launch finishes).
 *
 * <p>A launch is a {@link Future} (it cannot be cancelled: {@link #cancel(boolean)} returns false; stop a persistent
 * launch with {@link #stop()}) and can be seen as a {@link CompletionStage} ({@link #asStage()}) whose dependent
 * actions run in the common {@link ForkJoinPool}, never on the device's workers. Thread-safety: all methods may be
 * called from any thread.
 */
public final class KernelLaunch extends LaunchPadEnd implements Future<Void> {
    static final int RUNNING = 0;
    static final int COMPLETED = 1;
    static final int FAILED = 2;

    private static final VarHandle NEXT_BLOCK;
    private static final VarHandle FINISHED;
    private static final VarHandle WAITERS;
    private static final VarHandle STAGE;
    private static final VarHandle BARRIER_ARRIVED;
    private static final VarHandle BARRIER_SLEEPERS;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT_BLOCK = lookup.findVarHandle(LaunchClaim.class, "nextBlock", int.class);
            FINISHED = lookup.findVarHandle(LaunchFinished.class, "finished", int.class);
            WAITERS = lookup.findVarHandle(KernelLaunch.class, "waiters", Waiter.class);
            STAGE = lookup.findVarHandle(KernelLaunch.class, "stage", CompletableFuture.class);
            BARRIER_ARRIVED = lookup.findVarHandle(LaunchBarrier.class, "barrierArrived", int.class);
            BARRIER_SLEEPERS = lookup.findVarHandle(LaunchBarrier.class, "barrierSleepers", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Waiter DONE_WAITERS = new Waiter(null, null);
    private static final long JOIN_SPIN_NANOS = 20_000;
    private static final long JOIN_YIELD_NANOS = 50_000;
    /**
     * Spins of a worker waiting in {@link #syncWorkers} before it starts yielding between checks (none when the
     * device's workers park at once: {@link Device#parkAfterNanos()} 0).
     */
    private static final int BARRIER_SPINS = 1 << 8;
    /** {@link #await} outcomes. */
    private static final int DONE = 0;
    private static final int TIMED_OUT = 1;
    private static final int INTERRUPTED = 2;

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
    /**
     * The bodies, dropped when the launch completes: a device keeps its last launch (the stream's tail) until the
     * next one, and the body's captured variables (a kernel's arrays, a whole graph) must not stay reachable that
     * long. Plain fields: a worker reads them before its claim or its arrival, which happen-before the completion.
     */
    private Kernel kernel;
    private PersistentKernel persistent;
    private final boolean persistentLaunch;
    private final boolean poison;

    volatile KernelLaunch next;
    private volatile int state;
    private volatile boolean aborted;
    private volatile boolean stopRequested;
    private volatile KernelFailedException failure;
    /** Set once the failure has been handed to someone (a join, a get, a stage, a synchronize). */
    private volatile boolean failureReported;
    private volatile Waiter waiters;
    private volatile CompletableFuture<Void> stage;

    private KernelLaunch(final Device device, final long sequence, final int gridSize, final Kernel kernel,
        final PersistentKernel persistent, final boolean poison) {
        this.device = device;
        this.sequence = sequence;
        this.gridSize = gridSize;
        this.kernel = kernel;
        this.persistent = persistent;
        this.persistentLaunch = persistent != null;
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
        return persistentLaunch;
    }

    /** @return true once the launch has completed, successfully or not */
    @Override
    public boolean isDone() {
        return state != RUNNING;
    }

    /** @return true once the launch has failed */
    public boolean isFailed() {
        return state == FAILED;
    }

    /** @return false: a launch cannot be cancelled */
    @Override
    public boolean isCancelled() {
        return false;
    }

    /**
     * A launch cannot be cancelled (its blocks may already be running on every worker); stop a persistent launch
     * with {@link #stop()}.
     *
     * @return false
     */
    @Override
    public boolean cancel(final boolean mayInterruptIfRunning) {
        return false;
    }

    /**
     * Asks a persistent launch to stop: every worker leaves its loop after its current poll. No effect on a
     * discrete launch. Idempotent.
     */
    public void stop() {
        if (persistentLaunch && !stopRequested) {
            final boolean sleepers = publishStop();
            device.wakeWorkers();
            if (sleepers) {
                device.unparkWorkers(-1);
            }
        }
    }

    /**
     * The stop's half of the barrier's sleep handshake ({@link #sleepThrough}): publishes the stop, then reads the
     * sleepers.
     *
     * @return whether a worker may be asleep in the barrier (then the caller unparks the workers)
     */
    boolean publishStop() {
        stopRequested = true;
        return barrierSleepers != 0;
    }

    /**
     * The barrier of a persistent launch's workers (a cooperative launch's grid sync): the calling worker waits until
     * every worker of the device has called it for the same round, then all return {@code true}. Every worker of a
     * persistent launch is resident for the whole launch (a persistent launch starts when the previous launch of the
     * stream is done, and each worker loops on the kernel until the stop), so the barrier cannot wait for a worker
     * that is busy elsewhere, which is why only persistent launches may use it.
     *
     * <p><b>Memory ordering.</b> Everything a worker wrote before its call happens-before every worker's return from
     * the same round (each arrival is a volatile read-modify-write of one counter; the last arrival publishes the
     * next round with a volatile write that the others' volatile reads see).
     *
     * <p><b>Stopping.</b> When the launch is asked to stop ({@link #stop()}, or a worker's poll threw, which stops
     * the launch) before the round completes, the waiting workers return {@code false} instead of waiting for a
     * worker that will never arrive; so does every later call. A kernel must then return from its poll without
     * relying on what the other workers did in that round, and must not call the barrier again expecting a round.
     *
     * <p><b>Waiting.</b> Spins for a few hundred checks (microseconds), then yields between checks until the wait has
     * lasted the mesh's {@code parkAfterMicros} ({@link Mesh.Builder#parkAfterMicros}), then parks until the last
     * arrival (or a stop) unparks it. A barrier is for rounds of microseconds, which the spin serves without a system
     * call; the last arrival pays for an unpark only when a worker is asleep (one volatile read otherwise). Parking
     * matters when the workers do not each have a core: a worker that spins or yields keeps its core, so a worker
     * that another thread (a JIT compiler, a second mesh) took off its core waits on that core's run queue while a
     * core stays busy with waiting; a parked worker frees its core for it. An interrupt does not end the wait (the
     * round or a stop does) and stays set; a stop is the way out of a round that will not complete.
     *
     * @param ctx the calling worker's context (its launch must be this one)
     * @return {@code true} when every worker arrived, {@code false} when the launch is stopping
     * @throws IllegalStateException when this is not a persistent launch, or {@code ctx} is not a worker running it
     */
    public boolean syncWorkers(final WorkerContext ctx) {
        if (!persistentLaunch) {
            throw new IllegalStateException(this + " is not persistent: only a persistent launch's workers are all "
                + "resident, so only they may wait for each other");
        }
        if (ctx == null || ctx.launch != this) {
            throw new IllegalStateException("syncWorkers of " + this + " called outside one of its workers");
        }
        if (stopRequested) {
            return false;
        }
        final int round = barrierGeneration;
        final int workers = device.workerCount();
        if ((int)BARRIER_ARRIVED.getAndAdd(this, 1) + 1 == workers) {
            if (publishRound(round)) {
                device.unparkWorkers(ctx.workerIndex());
            }
            return true;
        }
        final long parkAfter = device.parkAfterNanos();
        final long start = System.nanoTime();
        int spins = parkAfter == 0 ? BARRIER_SPINS : 0;
        while (barrierGeneration == round) {
            if (stopRequested) {
                // the round may have completed just before the stop (the last arrival publishes it, then may stop
                // the launch): the stop's write comes after that publication, so this read sees it then
                return barrierGeneration != round;
            }
            if (spins < BARRIER_SPINS) {
                spins++;
                Thread.onSpinWait();
            } else if (System.nanoTime() - start < parkAfter) {
                Thread.yield();
            } else {
                sleepThrough(round);
            }
        }
        return true;
    }

    /**
     * Parks the calling worker until barrier round {@code round} completes or the launch stops. No wake-up is lost:
     * the sleeper counts itself (a volatile read-modify-write) and then reads the generation and the stop; the last
     * arrival publishes the next generation, and {@link #stop} the stop, each with a volatile write, and then reads
     * the count. Volatile accesses are sequentially consistent, so one side sees the other's write: the sleeper does
     * not park, or the waker unparks it (a permit given before the park makes the park return at once). Any other
     * return from the park (a permit left from an earlier unpark, a spurious wake-up) re-checks and parks again;
     * while the thread is interrupted, a park returns at once, so it yields instead.
     */
    private void sleepThrough(final int round) {
        if (enterSleep(round)) {
            do {
                if (Thread.currentThread().isInterrupted()) {
                    Thread.yield();
                } else {
                    LockSupport.park(this);
                }
            } while (barrierGeneration == round && !stopRequested);
        }
        BARRIER_SLEEPERS.getAndAdd(this, -1);
    }

    /**
     * The last arrival's half of the sleep handshake ({@link #sleepThrough}): resets the arrivals (before the next
     * round is published: nobody arrives for it until then), publishes round {@code round + 1}, then reads the
     * sleepers.
     *
     * @return whether a worker may be asleep in round {@code round} (then the caller unparks the workers)
     */
    boolean publishRound(final int round) {
        barrierArrived = 0;
        barrierGeneration = round + 1;
        return barrierSleepers != 0;
    }

    /**
     * The sleeper's half of the sleep handshake ({@link #sleepThrough}): counts the caller as a sleeper, then reads
     * the round and the stop. The caller leaves the count ({@code -1}) when it stops sleeping, whatever this returned.
     *
     * @return whether the caller must park: round {@code round} is still open and the launch is not stopping
     */
    boolean enterSleep(final int round) {
        BARRIER_SLEEPERS.getAndAdd(this, 1);
        return barrierGeneration == round && !stopRequested;
    }

    /**
     * Waits until the launch has completed: spins briefly, then parks (woken by the completing worker).
     *
     * @throws KernelFailedException    if a block or poll threw
     * @throws InterruptedWaitException if the thread is interrupted while waiting (the launch goes on)
     * @throws IllegalStateException    if called by a worker of this launch's device before the launch is done
     */
    public void join() {
        if (state == RUNNING && await(Waits.NO_DEADLINE) == INTERRUPTED) {
            throw Waits.interrupted(this.toString());
        }
        throwIfFailed();
    }

    /**
     * @param timeout longest wait
     * @param unit    its unit
     * @return true if the launch completed within the timeout
     * @throws KernelFailedException    if it completed with a failure
     * @throws InterruptedWaitException if the thread is interrupted while waiting (the launch goes on)
     * @throws IllegalStateException    if called by a worker of this launch's device before the launch is done
     */
    public boolean join(final long timeout, final TimeUnit unit) {
        if (state == RUNNING) {
            final int outcome = await(Waits.deadline(timeout, unit));
            if (outcome == INTERRUPTED) {
                throw Waits.interrupted(this.toString());
            }
            if (outcome == TIMED_OUT) {
                return false;
            }
        }
        throwIfFailed();
        return true;
    }

    /**
     * Waits for the launch, as a {@link Future}.
     *
     * @return null
     * @throws ExecutionException   with the {@link KernelFailedException} as its cause, if the launch failed
     * @throws InterruptedException if the thread is interrupted while waiting (the launch goes on)
     */
    @Override
    public Void get() throws InterruptedException, ExecutionException {
        if (state == RUNNING && await(Waits.NO_DEADLINE) == INTERRUPTED) {
            throw new InterruptedException("interrupted while waiting for " + this);
        }
        return result();
    }

    /**
     * Waits at most {@code timeout} for the launch, as a {@link Future}.
     *
     * @return null
     * @throws TimeoutException     if the launch is still running after the timeout
     * @throws ExecutionException   with the {@link KernelFailedException} as its cause, if the launch failed
     * @throws InterruptedException if the thread is interrupted while waiting (the launch goes on)
     */
    @Override
    public Void get(final long timeout, final TimeUnit unit)
        throws InterruptedException, ExecutionException, TimeoutException {
        if (state == RUNNING) {
            final int outcome = await(Waits.deadline(timeout, unit));
            if (outcome == INTERRUPTED) {
                throw new InterruptedException("interrupted while waiting for " + this);
            }
            if (outcome == TIMED_OUT) {
                throw new TimeoutException(this + " still running after " + timeout + " " + unit);
            }
        }
        return result();
    }

    /**
     * Waits without reporting the failure (for {@link Device#synchronize()}, which reports failures itself).
     *
     * @return false if the deadline passed first
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    boolean awaitDone(final long deadline, final String waitingFor) {
        if (state == RUNNING) {
            final int outcome = await(deadline);
            if (outcome == INTERRUPTED) {
                throw Waits.interrupted(waitingFor);
            }
            return outcome == DONE;
        }
        return true;
    }

    private Void result() throws ExecutionException {
        if (state == FAILED) {
            failureReported = true;
            throw new ExecutionException(failure.getMessage(), failure);
        }
        return null;
    }

    /**
     * @return a stage completed when the launch completes (exceptionally with its {@link KernelFailedException} if
     *         it failed); dependent actions run in the common {@link ForkJoinPool}, never on the device's workers.
     *         Asking for the stage counts as observing a failure (the device's {@code synchronize()} will not report
     *         it again).
     */
    public CompletionStage<Void> asStage() {
        CompletableFuture<Void> f = stage;
        if (f == null) {
            final CompletableFuture<Void> created = new CompletableFuture<>();
            f = (CompletableFuture<Void>)STAGE.compareAndExchange(this, (CompletableFuture<Void>)null, created);
            if (f == null) {
                f = created;
            }
        }
        failureReported = true;
        if (state != RUNNING) {
            completeStage(f);
        }
        return f.minimalCompletionStage();
    }

    private void completeStage(final CompletableFuture<Void> f) {
        if (state == FAILED) {
            f.completeExceptionally(failure);
        } else {
            f.complete(null);
        }
    }

    private void throwIfFailed() {
        if (state == FAILED) {
            failureReported = true;
            throw failure;
        }
    }

    /**
     * Waits until the launch is done, the deadline passes or the thread is interrupted (its status then cleared).
     *
     * @return {@link #DONE}, {@link #TIMED_OUT} or {@link #INTERRUPTED}
     */
    private int await(final long deadline) {
        WorkerThread.checkNotWorkerOf(device, toString());
        final long begin = System.nanoTime();
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
            if (waited > JOIN_YIELD_NANOS || Waits.remaining(deadline) <= 0) {
                break;
            }
        }
        while (state == RUNNING) {
            final Waiter head = waiters;
            if (head == DONE_WAITERS) {
                return DONE;
            }
            final Waiter me = new Waiter(Thread.currentThread(), head);
            if (!WAITERS.compareAndSet(this, head, me)) {
                continue;
            }
            while (state == RUNNING) {
                if (Thread.interrupted()) {
                    return INTERRUPTED;
                }
                final long left = Waits.remaining(deadline);
                if (left <= 0) {
                    return TIMED_OUT;
                }
                if (deadline == Waits.NO_DEADLINE) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, left);
                }
            }
        }
        return DONE;
    }

    /** Runs this launch's share on the calling worker. */
    void execute(final WorkerContext ctx, final IdleStrategy idle) {
        ctx.launch = this;
        if (persistentLaunch) {
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

    void complete() {
        kernel = null;
        persistent = null;
        if (failure != null) {
            device.failed(this);
        }
        finish(failure == null ? COMPLETED : FAILED);
        device.wakeWorkers();
        final CompletableFuture<Void> f = stage;
        if (f != null) {
            ForkJoinPool.commonPool().execute(() -> completeStage(f));
        }
    }

    /**
     * @return the failure if the launch failed and nobody has been told yet (it is then marked reported), else null
     */
    KernelFailedException takeUnreportedFailure() {
        if (state != FAILED || failureReported) {
            return null;
        }
        failureReported = true;
        return failure;
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
        return "KernelLaunch{dev" + device.id() + " #" + sequence + (persistentLaunch ? " persistent" : " grid=" + gridSize)
            + ", " + (state == RUNNING ? "running" : state == COMPLETED ? "completed" : "failed") + "}";
    }
}
