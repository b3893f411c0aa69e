package dev.overlap.graph.async;

import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import dev.overlap.queues.worklist.DistributedWorklist;
import dev.overlap.queues.worklist.TaskContext;
import dev.overlap.queues.worklist.TaskFunction;
import dev.overlap.queues.worklist.WorklistStats;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Asynchronous push BFS (Atos): no levels, no barriers. A task is a vertex, named by its local index on the device
 * that owns it; running it reads the vertex's depth {@code d} and, for every out-neighbour {@code w}, lowers
 * {@code depth[w]} to {@code d + 1} with an atomic minimum on the owner's memory — a CAS on this device's memory for
 * a local {@code w}, the remote atomic-min (a CAS straight on the other device's memory; one address space) for a
 * remote one — and pushes {@code w} to its owner only when the minimum lowered it (a local push, or a remote push
 * through the worker's aggregator). A plain read first skips the CAS when {@code w} is already as close.
 *
 * <p><b>Depth hints.</b> Each device also keeps one byte per vertex, a depth the vertex had at some point (255:
 * none). Depths only fall, so the hint is never below the depth, and a hint of at most {@code d + 1} proves there
 * is nothing to do without reading the depth. Written (plainly, by whoever lowered the depth) once per improvement
 * and read on every edge, the hint array is a quarter of the depth array: on a scale-free graph, where most edges
 * lead to vertices reached long ago, the edge loop mostly reads a cache-resident array instead of missing on another
 * device's depths. A stale or raced hint is only larger than needed and costs the depth read it would have saved.
 *
 * <p><b>Exactness.</b> Depths only decrease, every decrease pushes the vertex again, and a task expands with the
 * depth it reads when it runs, which is at most the one it was pushed with; so at termination every edge
 * {@code u -> w} satisfies {@code depth[w] <= depth[u] + 1} and depths equal exact BFS depths. Out of order (FIFO
 * across devices) a vertex may first get too large a depth and be expanded again when it improves: that redundant
 * work is Atos' "normalized workload" (Table III), reported as {@code visited} (expansions) against the reached
 * vertices.
 *
 * <p><b>Priority.</b> With {@link AppSettings.Queue#PRIORITY} the priority of a pushed vertex is its new depth
 * (threshold 1, band 1), so shallower vertices run first; a task whose priority is above the vertex's current depth
 * is stale (a later push carries the better depth) and is dropped without expanding.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread; the task function runs on every
 * worker at once and shares nothing but device memory (atomics) and per-worker counter rows.
 */
final class AsyncBfs {
    static final int INF = Integer.MAX_VALUE;
    /** A depth hint of 255 says nothing; smaller hints are depths the vertex had at some point. */
    static final int HINT_UNKNOWN = 255;

    private AsyncBfs() {
    }

    static long stateBytesPerDevice(final int maxOwned) {
        return Math.max(1L, maxOwned) * 5 + 512;
    }

    static AppResult run(final DeviceGraph g, final int source, final AppSettings settings) {
        final Partition p = g.partition();
        final Mesh mesh = g.mesh();
        final int devices = p.devices();
        final int n = p.vertexCount();
        if (source < 0 || source >= n) {
            throw new IllegalArgumentException("source " + source + " is outside 0.." + (n - 1));
        }
        final Owners owners = new Owners(p.bounds());
        final WorkerCounters counters = new WorkerCounters(devices, mesh.device(0).workerCount());
        final IntArray[] depth = new IntArray[devices];
        final IntArray[] hint = new IntArray[devices];
        DistributedWorklist wl = null;
        try {
            wl = Worklists.build(mesh, settings, maxOwned(p), 1, 1);
            for (int d = 0; d < devices; d++) {
                depth[d] = mesh.device(d).allocateInts(Math.max(1, p.size(d)));
                hint[d] = mesh.device(d).allocateInts(Math.max(1, (p.size(d) + 3) / 4));
            }
            final Kernel kernel = new Kernel(g, owners, depth, hint, counters,
                settings.queue() == AppSettings.Queue.PRIORITY);
            final long start = System.nanoTime();
            fill(mesh, depth, INF);
            fill(mesh, hint, -1);
            final int s = p.internal(source);
            final int sOwner = owners.of(s);
            depth[sOwner].set(s - owners.lo(sOwner), 0);
            wl.seed(sOwner, s - owners.lo(sOwner), 0);
            final WorklistStats st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel);
            final long nanos = System.nanoTime() - start;
            final int[] out = new int[n];
            for (int d = 0; d < devices; d++) {
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    final int x = depth[d].get(i);
                    out[p.original(lo + i)] = x == INF ? -1 : x;
                }
            }
            final Worklists.Traffic traffic = new Worklists.Traffic();
            traffic.add(st);
            return AppResult.bfs(out, nanos, traffic.counts(Math.max(1, st.rounds()), 0, counters));
        } finally {
            if (!mesh.isClosed()) {
                free(mesh, depth);
                free(mesh, hint);
            }
            if (wl != null) {
                wl.close();
            }
        }
    }

    static int maxOwned(final Partition p) {
        int m = 0;
        for (int d = 0; d < p.devices(); d++) {
            m = Math.max(m, p.size(d));
        }
        return m;
    }

    /** Sets every element of every device's array to {@code value}, one kernel per device. */
    static void fill(final Mesh mesh, final IntArray[] arrays, final int value) {
        final KernelLaunch[] launches = new KernelLaunch[arrays.length];
        for (int d = 0; d < arrays.length; d++) {
            final IntArray a = arrays[d];
            final int size = a.length();
            launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                for (int i = b << 16, end = Math.min(size, (b + 1) << 16); i < end; i++) {
                    a.set(i, value);
                }
            });
        }
        join(launches);
    }

    static void join(final KernelLaunch[] launches) {
        RuntimeException failure = null;
        for (final KernelLaunch l : launches) {
            if (l == null) {
                continue;
            }
            try {
                l.join();
            } catch (final RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    static void free(final Mesh mesh, final dev.overlap.core.DeviceArray[] arrays) {
        for (int d = 0; d < arrays.length; d++) {
            if (arrays[d] != null) {
                mesh.device(d).free(arrays[d]);
                arrays[d] = null;
            }
        }
    }

    /**
     * The task function. Per device it keeps the raw buffers and byte offsets of the CSR slice and the depths, so the
     * edge loop reads device memory without per-access index checks (the slices were validated when the graph was
     * placed, and every target is an internal id below {@code n}).
     */
    static final class Kernel implements TaskFunction {
        private final Owners owners;
        private final int[] lo;
        private final AtomicBuffer[] offBuf;
        private final int[] offBase;
        private final AtomicBuffer[] tgtBuf;
        private final int[] tgtBase;
        private final AtomicBuffer[] depthBuf;
        private final int[] depthBase;
        private final AtomicBuffer[] hintBuf;
        private final int[] hintBase;
        private final WorkerCounters counters;
        private final boolean priority;

        Kernel(final DeviceGraph g, final Owners owners, final IntArray[] depth, final IntArray[] hint,
            final WorkerCounters counters, final boolean priority) {
            final int devices = g.devices();
            this.owners = owners;
            this.lo = new int[devices];
            this.offBuf = new AtomicBuffer[devices];
            this.offBase = new int[devices];
            this.tgtBuf = new AtomicBuffer[devices];
            this.tgtBase = new int[devices];
            this.depthBuf = new AtomicBuffer[devices];
            this.depthBase = new int[devices];
            this.hintBuf = new AtomicBuffer[devices];
            this.hintBase = new int[devices];
            for (int d = 0; d < devices; d++) {
                lo[d] = g.partition().lo(d);
                final LongArray off = g.offsets(d);
                offBuf[d] = off.memory().buffer();
                offBase[d] = (int)off.offset();
                final IntArray tgt = g.targets(d);
                tgtBuf[d] = tgt.memory().buffer();
                tgtBase[d] = (int)tgt.offset();
                depthBuf[d] = depth[d].memory().buffer();
                depthBase[d] = (int)depth[d].offset();
                hintBuf[d] = hint[d].memory().buffer();
                hintBase[d] = (int)hint[d].offset();
            }
            this.counters = counters;
            this.priority = priority;
        }

        @Override
        public void run(final int v, final TaskContext ctx) {
            final int d = ctx.device();
            final int dv = depthBuf[d].getIntVolatile(depthBase[d] + (v << 2));
            if (priority && ctx.priority() > dv) {
                return;
            }
            final int next = dv + 1;
            final AtomicBuffer ob = offBuf[d];
            final int oi = offBase[d] + (v << 3);
            final int begin = (int)ob.getLong(oi);
            final int end = (int)ob.getLong(oi + 8);
            final AtomicBuffer tb = tgtBuf[d];
            final int tBase = tgtBase[d];
            long atomics = 0;
            for (int at = tBase + (begin << 2), stop = tBase + (end << 2); at < stop; at += 4) {
                final int w = tb.getInt(at);
                final int o = owners.of(w);
                final int lw = w - lo[o];
                final AtomicBuffer hb = hintBuf[o];
                final int hi = hintBase[o] + lw;
                final int h = hb.getByte(hi) & 0xff;
                if (h <= next && h != HINT_UNKNOWN) {
                    continue;
                }
                final AtomicBuffer db = depthBuf[o];
                final int wi = depthBase[o] + (lw << 2);
                int cur = db.getInt(wi);
                if (next < cur) {
                    while (next < cur && !db.compareAndSetInt(wi, cur, next)) {
                        cur = db.getIntVolatile(wi);
                    }
                    if (o != d) {
                        atomics++;
                    }
                    if (next < cur) {
                        if (next < HINT_UNKNOWN) {
                            hb.putByte(hi, (byte)next);
                        }
                        if (o == d) {
                            ctx.push(lw, next);
                        } else {
                            ctx.pushTo(o, lw, next);
                        }
                    }
                }
            }
            final int worker = ctx.worker();
            counters.add(d, worker, WorkerCounters.VISITED, 1);
            counters.add(d, worker, WorkerCounters.EDGES, end - begin);
            if (atomics != 0) {
                counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
            }
        }
    }
}
