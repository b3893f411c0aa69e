package dev.overlap.graph.async;

import dev.overlap.core.DoubleArray;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.worklist.TaskContext;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Push PageRank's kernel for one worker per device (the common configuration): no atomic read-modify-writes, because
 * no residual slot has two writers. Device {@code d} holds, for its own vertices, the slots
 * {@code [r, factor:int, queued:int]} (16 bytes; only {@code d} writes {@code r}) and {@code taken[d][s]} (how much
 * of what device {@code s} owes it it has taken, 8 bytes per vertex and device; only {@code d} touches them), and for
 * every other device {@code e}'s vertices the slots {@code [owed, signalled]} (16 bytes; only {@code d} writes them;
 * the threshold factor of such a vertex is read from its owner's offsets, only where a debt is checked).
 * {@code owed} is cumulative and published with release stores, so its owner reads whole values; a vertex's
 * residual is {@code r + sum over s of (owed - taken)}. {@code queued} is set by whoever pushes the vertex (its
 * owner, or a device whose debt to it grew by its threshold) and cleared by the owner when it runs the vertex: one
 * task per vertex at a time, as the crossing rule gives {@link AtomicPushKernel}.
 *
 * <p>What it gives up: a vertex is pushed when its own part reaches its threshold, or when a device's debt to it has
 * grown by the threshold since that device last looked, so a quiescent worklist leaves every <em>part</em> below its
 * threshold, not every sum, and without fences a push can be missed in a race with the owner's clear. The host's
 * error bound, computed from the exact sums ({@link ResidualSums}), decides whether another pass (whose scan sees the
 * sums) is needed, so the answer is never wrong, at worst one pass later.
 *
 * <p>Across processes the own slots and the debts are symmetric allocations (a remote pusher sets the queued flag
 * in the owner's memory; the owner reads the debts in the debtors' memory), the taken sums local ones.
 *
 * <p>Thread-safety: one worker per device; the cross-device fields are the release-stored debts and the queued flags
 * as described.
 */
final class SoloPushKernel extends PushKernel {
    private final AtomicBuffer[] localBuf;
    private final int[] localBase;
    /**
     * {@code [d][e]}: what device {@code d} owes device {@code e}'s vertices, in {@code d}'s memory: one symmetric
     * array over every internal id (16 bytes each, the own range unused), so {@code [d][e]} is {@code d}'s copy
     * with its base moved to {@code e}'s first id.
     */
    private final AtomicBuffer[][] owedBuf;
    private final int[][] owedBase;
    /**
     * {@code [d][s]}: how much of what {@code s} owes {@code d} has been taken, in {@code d}'s memory (only {@code d}
     * touches it: local allocations, made for this process's devices).
     */
    private final DoubleArray[][] taken;
    private final AtomicBuffer[][] takenBuf;
    private final int[][] takenBase;

    SoloPushKernel(final DeviceGraph g, final WorkerCounters counters, final double damping, final boolean priority) {
        super(g, counters, damping, 1, priority, g.summary().isSymmetric());
        this.localBuf = new AtomicBuffer[devices];
        this.localBase = new int[devices];
        this.owedBuf = new AtomicBuffer[devices][devices];
        this.owedBase = new int[devices][devices];
        this.taken = new DoubleArray[devices][devices];
        this.takenBuf = new AtomicBuffer[devices][devices];
        this.takenBase = new int[devices][devices];
        try {
            allocateRanks();
            // symmetric: other devices set the queued flags, and read r through the host's sums
            final DoubleArray[] local = state.doubles(2L * maxOwned);
            // symmetric: the owner of a vertex reads every other device's debt to it
            final DoubleArray[] owed = devices > 1 ? state.doubles(2L * g.partition().vertexCount()) : null;
            for (int d = 0; d < devices; d++) {
                localBuf[d] = local[d].memory().buffer();
                localBase[d] = (int)local[d].offset();
                for (int e = 0; e < devices; e++) {
                    if (e == d) {
                        continue;
                    }
                    owedBuf[d][e] = owed[d].memory().buffer();
                    owedBase[d][e] = (int)owed[d].offset() + (lo[e] << 4);
                    if (world.isLocal(d)) {
                        taken[d][e] = mesh.device(d).allocateDoubles(Math.max(1, size[d]));
                        takenBuf[d][e] = taken[d][e].memory().buffer();
                        takenBase[d][e] = (int)taken[d][e].offset();
                    }
                }
            }
        } catch (RuntimeException e) {
            free();
            throw e;
        }
    }

    /**
     * @return device bytes of this kernel's state for a device owning {@code owned} of {@code vertices} on
     *         {@code devices} devices: its own slots, the debts to every other device's vertices and what it has
     *         taken of each other device's debts
     */
    static long bytesPerDevice(final int vertices, final long owned, final int devices) {
        return rankBytes(owned) + 16 * owned + 16L * Math.max(1, vertices) + 8 * owned * Math.max(0, devices - 1);
    }

    @Override
    void free() {
        for (int d = 0; d < devices; d++) {
            for (int e = 0; e < devices; e++) {
                if (taken[d][e] != null) {
                    mesh.device(d).free(taken[d][e]);
                    taken[d][e] = null;
                }
            }
        }
        super.free();
    }

    @Override
    void startVertex(final int d, final int i, final double r, final int factor) {
        final int li = localBase[d] + (i << 4);
        localBuf[d].putDouble(li, r);
        localBuf[d].putInt(li + 8, factor);
    }

    @Override
    double residual(final int d, final int v) {
        double r = localBuf[d].getDouble(localBase[d] + (v << 4));
        for (int s = 0; s < devices; s++) {
            if (s != d) {
                r += Double.longBitsToDouble(owedBuf[s][d].getLongVolatile(owedBase[s][d] + (v << 4)))
                    - takenBuf[d][s].getDouble(takenBase[d][s] + (v << 3));
            }
        }
        return r;
    }

    /** The scan marks what it pushes queued, like every other push of this kernel. */
    @Override
    boolean scanPush(final int d, final int v) {
        final AtomicBuffer lb = localBuf[d];
        final int qi = localBase[d] + (v << 4) + 12;
        if (lb.getIntVolatile(qi) != 0) {
            return false;
        }
        lb.putIntOrdered(qi, 1);
        return true;
    }

    @Override
    public void run(final int v, final TaskContext ctx) {
        if (!scanned(ctx)) { // a remote push can reach this worker before its first idle poll
            scan(ctx);
        }
        final int d = ctx.device();
        final AtomicBuffer lb = localBuf[d];
        final int li = localBase[d] + (v << 4);
        lb.putIntVolatile(li + 12, 0);
        double r = lb.getDouble(li);
        long reads = 0;
        for (int s = 0; s < devices; s++) {
            if (s == d) {
                continue;
            }
            final double owes = Double.longBitsToDouble(owedBuf[s][d].getLongVolatile(owedBase[s][d] + (v << 4)));
            final AtomicBuffer tb = takenBuf[d][s];
            final int ti = takenBase[d][s] + (v << 3);
            final double had = tb.getDouble(ti);
            if (owes != had) {
                r += owes - had;
                tb.putDouble(ti, owes);
            }
            reads++;
        }
        final double threshold = eps;
        if (Math.abs(r) < threshold * lb.getInt(li + 8)) {
            lb.putDouble(li, r);
            return;
        }
        lb.putDouble(li, 0);
        final int xi = rankBase[d] + (v << 3);
        rankBuf[d].putDouble(xi, rankBuf[d].getDouble(xi) + r);
        final AtomicBuffer ob = offBuf[d];
        final int oi = offBase[d] + (v << 3);
        final int begin = (int)ob.getLong(oi);
        final int end = (int)ob.getLong(oi + 8);
        final int worker = ctx.worker();
        counters.add(d, worker, WorkerCounters.VISITED, 1);
        counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, reads);
        if (begin == end) {
            return;
        }
        scatter(d, begin, end, damping * r / (end - begin), threshold, ctx, childPriority(ctx));
        counters.add(d, worker, WorkerCounters.EDGES, end - begin);
    }

    /**
     * Adds {@code share} to the residuals of the targets of device {@code d}'s edges {@code [begin, end)} with
     * plain stores: to the own part of a local target (pushing it when that part reached its threshold and it is
     * not queued), to what {@code d} owes a remote one (pushing it to its owner when the debt grew by its
     * threshold since it last did and it is not queued). Without a context (the warm start) it only adds.
     */
    private void scatter(final int d, final int begin, final int end, final double share, final double threshold,
        final TaskContext ctx, final int prio) {
        final AtomicBuffer tb = tgtBuf[d];
        final AtomicBuffer lb = localBuf[d];
        final int lBase = localBase[d];
        final int myLo = lo[d];
        final int mySize = size[d];
        for (int at = tgtBase[d] + (begin << 2), stop = tgtBase[d] + (end << 2); at < stop; at += 4) {
            final int w = tb.getInt(at);
            final int lw = w - myLo;
            if (lw >= 0 && lw < mySize) {
                final int wi = lBase + (lw << 4);
                final double now = lb.getDouble(wi) + share;
                lb.putDouble(wi, now);
                if (ctx != null && Math.abs(now) >= threshold * lb.getInt(wi + 8) && lb.getInt(wi + 12) == 0) {
                    lb.putIntOrdered(wi + 12, 1);
                    ctx.push(lw, prio);
                }
            } else {
                final int o = owners.of(w);
                final int rw = w - lo[o];
                final AtomicBuffer ob = owedBuf[d][o];
                final int oi = owedBase[d][o] + (rw << 4);
                final double now = ob.getDouble(oi) + share;
                ob.putLongOrdered(oi, Double.doubleToRawLongBits(now));
                if (ctx != null && Math.abs(now - ob.getDouble(oi + 8)) >= threshold * factor(o, rw)) {
                    ob.putDouble(oi + 8, now);
                    final AtomicBuffer qb = localBuf[o];
                    final int qi = localBase[o] + (rw << 4) + 12;
                    if (qb.getIntVolatile(qi) == 0) {
                        qb.putIntOrdered(qi, 1);
                        ctx.pushTo(o, rw, prio);
                    }
                }
            }
        }
    }

    @Override
    void scatterStart(final int d, final int worker, final int from, final int to) {
        final AtomicBuffer ob = offBuf[d];
        long edges = 0;
        for (int u = from; u < to; u++) {
            final int oi = offBase[d] + (u << 3);
            final int begin = (int)ob.getLong(oi);
            final int end = (int)ob.getLong(oi + 8);
            if (begin == end) {
                continue;
            }
            scatter(d, begin, end, damping * start / (end - begin), 0, null, 0);
            edges += end - begin;
        }
        counters.add(d, worker, WorkerCounters.EDGES, edges);
    }
}
