package dev.overlap.stress.core;

import dev.overlap.core.ChunkReadyListener;
import dev.overlap.core.ChunkTracker;

import java.util.ArrayDeque;
import java.util.function.Function;

/**
 * Reuses {@link ChunkTracker}s across jcstress state instances through the tracker's own O(1)
 * {@link ChunkTracker#rearm() rearm()}, instead of building one per state.
 *
 * <p>Why: a tracker owns a small direct buffer, and jcstress creates millions of states per second. Built per
 * state, those buffers can only be reclaimed by the garbage collector (their cleaners), which throttles the test
 * (the JDK stalls direct allocations while it waits for the GC) and costs most of the run. Re-arming is also the
 * way the library itself reuses a tracker from one iteration to the next, so every test that leases from a pool
 * exercises {@code rearm()} and epochs far above 0 as a side effect.
 *
 * <p>A {@link Lease} binds a pooled tracker to the state currently using it: the tracker's listener forwards to
 * {@link Lease#target}. A state leases in its constructor and gives the tracker back at the end of its arbiter;
 * jcstress runs a state's arbiter and the constructor of its replacement on the same thread, so the pools are
 * per thread and uncontended. A tracker is pooled again only if its epoch completed (it is then re-armed) or it
 * was just re-armed (no chunk ready); anything else (a broken run) is dropped and left to the garbage collector.
 *
 * <p>Thread-safety: {@link #lease} and {@link #release} may be called from any thread; each thread has its own pool.
 */
final class TrackerPool {
    /** Upper bound of trackers kept per thread (jcstress keeps at most ~10 000 states alive at once). */
    private static final int MAX_POOLED_PER_THREAD = 1 << 15;

    /** A tracker plus the state that is using it now. */
    static final class Lease implements ChunkReadyListener {
        final ChunkTracker tracker;
        /** The listener of the current state; set before the state is published to the actors. */
        ChunkReadyListener target;

        Lease(final Function<ChunkReadyListener, ChunkTracker> factory) {
            this.tracker = factory.apply(this);
        }

        @Override
        public void onChunkReady(final int chunk, final long epoch) {
            target.onChunkReady(chunk, epoch);
        }
    }

    private final Function<ChunkReadyListener, ChunkTracker> factory;
    private final ThreadLocal<ArrayDeque<Lease>> free = ThreadLocal.withInitial(ArrayDeque::new);

    /** @param factory builds a tracker that reports to the given listener */
    TrackerPool(final Function<ChunkReadyListener, ChunkTracker> factory) {
        this.factory = factory;
    }

    /** @return a tracker in a fresh epoch (no chunk ready) whose listener now forwards to {@code target} */
    Lease lease(final ChunkReadyListener target) {
        Lease lease = free.get().pollFirst();
        if (lease == null) {
            lease = new Lease(factory);
        }
        lease.target = target;
        return lease;
    }

    /** Gives a tracker back: re-arms it if its epoch is complete; drops it if it is half-way through an epoch. */
    void release(final Lease lease) {
        final ChunkTracker tracker = lease.tracker;
        if (tracker.allReady()) {
            tracker.rearm();
        }
        lease.target = null;
        final ArrayDeque<Lease> pool = free.get();
        if (tracker.readyChunks() == 0 && pool.size() < MAX_POOLED_PER_THREAD) {
            pool.addFirst(lease);
        }
    }
}
