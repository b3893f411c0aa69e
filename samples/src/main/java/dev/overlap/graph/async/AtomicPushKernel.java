package dev.overlap.graph.async;

import dev.overlap.core.DoubleArray;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.worklist.TaskContext;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Push PageRank's kernel for several workers per device: each device holds {@code [r, factor]} per owned vertex
 * (16 bytes: the residual and its threshold factor on one cache line), and every residual update is a CAS on the
 * IEEE bits, straight on the owner's memory for a remote target (one address space). A task takes its residual with
 * an atomic exchange, adds it to its rank and scatters {@code a r / outdeg} to its out-neighbours, pushing exactly
 * those whose residual crossed its threshold from below: so a vertex at or above its threshold is always queued or
 * running, and a quiescent worklist leaves every residual below its threshold.
 *
 * <p>Why only with several workers: a CAS is a full fence and waits for a line another core also updates, so with
 * one worker per device {@link SoloPushKernel}, which has no read-modify-writes, is used instead.
 *
 * <p>Thread-safety: residuals and ranks are updated with CAS by any worker; the per-worker scatter buffers are
 * confined to their worker.
 */
final class AtomicPushKernel extends PushKernel {
    /** Edges whose residuals a scatter loads before it CASes them. */
    private static final int CHUNK = 64;

    private final AtomicBuffer[] resBuf;
    private final int[] resBase;
    /** Per worker: the scatter's chunk buffers. */
    private final Scratch[] scratch;

    AtomicPushKernel(final DeviceGraph g, final WorkerCounters counters, final double damping, final int workers,
        final boolean priority) {
        super(g, counters, damping, workers, priority, false);
        this.resBuf = new AtomicBuffer[devices];
        this.resBase = new int[devices];
        try {
            allocateRanks();
            final DoubleArray[] views = state.doubles(2L * maxOwned); // symmetric: every device CASes them
            for (int d = 0; d < devices; d++) {
                resBuf[d] = views[d].memory().buffer();
                resBase[d] = (int)views[d].offset();
            }
        } catch (RuntimeException e) {
            free();
            throw e;
        }
        this.scratch = new Scratch[devices * workers];
        for (int i = 0; i < scratch.length; i++) {
            scratch[i] = new Scratch();
        }
    }

    /** @return device bytes of this kernel's state for a device owning {@code owned} vertices */
    static long bytesPerDevice(final long owned) {
        return rankBytes(owned) + 16 * owned;
    }

    @Override
    void startVertex(final int d, final int i, final double r, final int factor) {
        resBuf[d].putDouble(resBase[d] + (i << 4), r);
        resBuf[d].putDouble(resBase[d] + (i << 4) + 8, factor);
    }

    @Override
    double residual(final int d, final int v) {
        return Double.longBitsToDouble(resBuf[d].getLongVolatile(resBase[d] + (v << 4)));
    }

    @Override
    public void run(final int v, final TaskContext ctx) {
        final int d = ctx.device();
        final double threshold = eps;
        final AtomicBuffer mine = resBuf[d];
        final int ri = resBase[d] + (v << 4);
        if (Math.abs(Double.longBitsToDouble(mine.getLongVolatile(ri))) < threshold * mine.getDouble(ri + 8)) {
            return;
        }
        final double r = Double.longBitsToDouble(mine.getAndSetLong(ri, 0L));
        add(rankBuf[d], rankBase[d] + (v << 3), r);
        final AtomicBuffer ob = offBuf[d];
        final int oi = offBase[d] + (v << 3);
        final int begin = (int)ob.getLong(oi);
        final int end = (int)ob.getLong(oi + 8);
        final int worker = ctx.worker();
        counters.add(d, worker, WorkerCounters.VISITED, 1);
        if (begin == end) {
            return;
        }
        final double share = damping * r / (end - begin);
        final long atomics = scatter(d, worker, begin, end, share, threshold, ctx, childPriority(ctx));
        counters.add(d, worker, WorkerCounters.EDGES, end - begin);
        if (atomics != 0) {
            counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
        }
    }

    /**
     * Adds {@code share} to the residuals of the targets of device {@code d}'s edges {@code [begin, end)} and,
     * with a context, pushes those whose residual crossed its threshold.
     *
     * <p>In chunks of {@value #CHUNK} edges: first plain loads of every target's residual (independent loads, so
     * their cache misses overlap), then the CASes with those values as the expected ones. A CAS is a full fence
     * on x86: CASing straight away would make every edge wait out its own miss; this way the CASes mostly hit
     * lines the loads brought in (a failed CAS re-reads and retries, so a stale load costs a retry, never an
     * error).
     *
     * @return the additions on other devices' memory
     */
    private long scatter(final int d, final int worker, final int begin, final int end, final double share,
        final double threshold, final TaskContext ctx, final int prio) {
        final Scratch sc = scratch[d * workers + worker];
        final int[] dev = sc.dev;
        final int[] slot = sc.slot;
        final long[] bits = sc.bits;
        final AtomicBuffer tb = tgtBuf[d];
        final int tBase = tgtBase[d];
        long atomics = 0;
        for (int e = begin; e < end; e += CHUNK) {
            final int n = Math.min(CHUNK, end - e);
            for (int j = 0, at = tBase + (e << 2); j < n; j++, at += 4) {
                final int w = tb.getInt(at);
                final int o = owners.of(w);
                final int wi = resBase[o] + ((w - lo[o]) << 4);
                dev[j] = o;
                slot[j] = wi;
                bits[j] = resBuf[o].getLong(wi);
            }
            for (int j = 0; j < n; j++) {
                final int o = dev[j];
                final int wi = slot[j];
                final AtomicBuffer rb = resBuf[o];
                long b = bits[j];
                double old = Double.longBitsToDouble(b);
                while (!rb.compareAndSetLong(wi, b, Double.doubleToRawLongBits(old + share))) {
                    b = rb.getLongVolatile(wi);
                    old = Double.longBitsToDouble(b);
                }
                if (o != d) {
                    atomics++;
                }
                if (ctx != null) {
                    final double t = threshold * rb.getDouble(wi + 8);
                    if (Math.abs(old) < t && Math.abs(old + share) >= t) {
                        final int lw = (wi - resBase[o]) >> 4;
                        if (o == d) {
                            ctx.push(lw, prio);
                        } else {
                            ctx.pushTo(o, lw, prio);
                        }
                    }
                }
            }
        }
        return atomics;
    }

    @Override
    void scatterStart(final int d, final int worker, final int from, final int to) {
        final AtomicBuffer ob = offBuf[d];
        long edges = 0;
        long atomics = 0;
        for (int u = from; u < to; u++) {
            final int oi = offBase[d] + (u << 3);
            final int begin = (int)ob.getLong(oi);
            final int end = (int)ob.getLong(oi + 8);
            if (begin == end) {
                continue;
            }
            final double share = damping * start / (end - begin);
            atomics += scatter(d, worker, begin, end, share, 0, null, 0);
            edges += end - begin;
        }
        counters.add(d, worker, WorkerCounters.EDGES, edges);
        counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
    }

    /** Atomically adds {@code x} to the double at {@code index}; @return the previous value. */
    private static double add(final AtomicBuffer buf, final int index, final double x) {
        for (;;) {
            final long bits = buf.getLongVolatile(index);
            final double old = Double.longBitsToDouble(bits);
            if (buf.compareAndSetLong(index, bits, Double.doubleToRawLongBits(old + x))) {
                return old;
            }
        }
    }

    /** One worker's chunk buffers for {@link #scatter}; confined to that worker. */
    private static final class Scratch {
        final int[] dev = new int[CHUNK];
        final int[] slot = new int[CHUNK];
        final long[] bits = new long[CHUNK];
    }
}
