import sun.misc.Unsafe;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bisecting harness of this folder (not part of the build): one worker's top-down BFS over a graph file loaded
 * into off-heap CSR arrays, in the shapes named in the README, interleaved in one JVM.
 *
 * <pre>javac Lab.java && java -Xms1g Lab GRAPH.el SOURCE solo,old,lane6,lane8</pre>
 */
public class Lab {
    static final Unsafe U;
    static final int BUFFER = 4096;
    static int n;
    static long off;
    static long tgt;

    static {
        try {
            final var f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (Unsafe)f.get(null);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Reads an edge list ("u v" per line), symmetrised, into CSR rows sorted by target. */
    static void load(final String file) throws IOException {
        int[] src = new int[1 << 22];
        int[] dst = new int[1 << 22];
        int k = 0;
        int max = 0;
        try (BufferedReader r = Files.newBufferedReader(Path.of(file))) {
            for (String line; (line = r.readLine()) != null; ) {
                final int sp = line.indexOf(' ');
                final int a = Integer.parseInt(line.substring(0, sp));
                final int b = Integer.parseInt(line.substring(sp + 1).trim().split(" ")[0]);
                if (k + 2 > src.length) {
                    src = Arrays.copyOf(src, src.length * 2);
                    dst = Arrays.copyOf(dst, dst.length * 2);
                }
                src[k] = a;
                dst[k++] = b;
                src[k] = b;
                dst[k++] = a;
                max = Math.max(max, Math.max(a, b));
            }
        }
        n = max + 1;
        final long[] row = new long[n + 1];
        for (int i = 0; i < k; i++) {
            row[src[i] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            row[v + 1] += row[v];
        }
        final long[] pos = row.clone();
        final int[] t = new int[k];
        for (int i = 0; i < k; i++) {
            t[(int)pos[src[i]]++] = dst[i];
        }
        off = U.allocateMemory(8L * (n + 1));
        tgt = U.allocateMemory(4L * k);
        for (int v = 0; v < n; v++) {
            Arrays.sort(t, (int)row[v], (int)row[v + 1]);
        }
        for (int v = 0; v <= n; v++) {
            U.putLong(off + 8L * v, row[v]);
        }
        for (int i = 0; i < k; i++) {
            U.putInt(tgt + 4L * i, t[i]);
        }
    }

    static int degree(final int u) {
        return (int)(U.getLong(off + ((long)(u + 1) << 3)) - U.getLong(off + ((long)u << 3)));
    }

    /** The solo loop: heap depths and queue, one FIFO. */
    static int solo(final int s, final int[] depth, final int[] queue) {
        Arrays.fill(depth, -1);
        depth[s] = 0;
        queue[0] = s;
        int head = 0;
        int tail = 1;
        while (head < tail) {
            final int u = queue[head++];
            final int next = depth[u] + 1;
            final long at = tgt + (U.getLong(off + ((long)u << 3)) << 2);
            for (int i = 0, d = degree(u); i < d; i++) {
                final int v = U.getInt(at + ((long)i << 2));
                if (depth[v] < 0) {
                    depth[v] = next;
                    queue[tail++] = v;
                }
            }
        }
        return tail;
    }

    /** One worker's top-down step in one of the shapes; the driver ({@link #levels}) is shared. */
    abstract static class Lane {
        final int[] buffer = new int[BUFFER];
        long depth;
        long queue;
        long tail;
        int held;
        int nextDepth;
        long claimed;
        long scanned;
        long discovered;

        /** Expands the frontier entries {@code [from, to)} into the buffer and the queue after {@link #tail}. */
        abstract void step(long from, long to);

        void flush() {
            for (int k = 0; k < held; k++) {
                U.putInt(queue + ((tail + k) << 2), buffer[k]);
            }
            tail += held;
            held = 0;
        }

        /** Claims with a count of the claimed vertices' edges and fields updated per vertex (coop as it was). */
        void claimCounting(final long edges, final int count) {
            final int[] buf = buffer;
            int h = held;
            long found = 0;
            for (int e = 0; e < count; e++) {
                final int v = U.getInt(edges + ((long)e << 2));
                final long at = depth + ((long)v << 2);
                final int old = U.getInt(at);
                if (old < 0) {
                    U.putInt(at, nextDepth);
                    buf[h++] = v;
                    found += -1 - old;
                }
            }
            claimed += h - held;
            held = h;
            discovered += found;
        }
    }

    /** Claims without a count, the fill passed in and returned. */
    static int claimOnly(final long edges, final int count, final long depth, final int nextD, final int[] buf,
        final int held) {
        int h = held;
        for (int e = 0; e < count; e++) {
            final int v = U.getInt(edges + ((long)e << 2));
            final long at = depth + ((long)v << 2);
            if (U.getInt(at) < 0) {
                U.putInt(at, nextD);
                buf[h++] = v;
            }
        }
        return h;
    }

    /** coop as it was: a method per vertex, rows in pieces, the count, fields per vertex. */
    static final class Old extends Lane {
        @Override
        void step(final long from, final long to) {
            for (long i = from; i < to; i++) {
                final int u = U.getInt(queue + (i << 2));
                final long first = U.getLong(off + ((long)u << 3));
                final int degree = degree(u);
                for (int k = 0; k < degree; k += BUFFER) {
                    final int count = Math.min(BUFFER, degree - k);
                    if (count > BUFFER - held) {
                        flush();
                    }
                    claimCounting(tgt + ((first + k) << 2), count);
                }
                scanned += degree;
            }
        }
    }

    /** No count; the fill and the claimed count in fields per vertex, the scanned count too. */
    static final class Lane6 extends Lane {
        @Override
        void step(final long from, final long to) {
            for (long i = from; i < to; i++) {
                final int u = U.getInt(queue + (i << 2));
                final int degree = degree(u);
                if (degree > BUFFER - held) {
                    flush();
                }
                final int h = claimOnly(tgt + (U.getLong(off + ((long)u << 3)) << 2), degree, depth, nextDepth,
                    buffer, held);
                claimed += h - held;
                held = h;
                scanned += degree;
            }
        }
    }

    /** As committed: no count, the fill and the rows scanned in locals across the frontier. */
    static final class Lane8 extends Lane {
        @Override
        void step(final long from, final long to) {
            final int[] buf = buffer;
            final long d = depth;
            final int nextD = nextDepth;
            int h = held;
            long rows = 0;
            for (long i = from; i < to; i++) {
                final int u = U.getInt(queue + (i << 2));
                final int degree = degree(u);
                if (degree > BUFFER - h) {
                    held = h;
                    flush();
                    h = 0;
                }
                h = claimOnly(tgt + (U.getLong(off + ((long)u << 3)) << 2), degree, d, nextD, buf, h);
                rows += degree;
            }
            held = h;
            scanned += rows;
        }
    }

    /** The level loop every lane runs: degree-encoded initial depths, one queue, a step per level. */
    static int levels(final int s, final long depth, final long queue, final Lane lane) {
        for (int v = 0; v < n; v++) {
            U.putInt(depth + ((long)v << 2), -1 - degree(v));
        }
        U.putInt(depth + ((long)s << 2), 0);
        U.putInt(queue, s);
        lane.depth = depth;
        lane.queue = queue;
        long base = 0;
        long size = 1;
        for (int level = 0; size > 0; level++) {
            lane.tail = base + size;
            lane.held = 0;
            lane.nextDepth = level + 1;
            lane.step(base, base + size);
            lane.flush();
            final long next = lane.tail - base - size;
            base += size;
            size = next;
        }
        return (int)base;
    }

    public static void main(final String[] args) throws IOException {
        load(args[0]);
        final int s = Integer.parseInt(args[1]);
        final String[] variants = args[2].split(",");
        System.out.println("n=" + n);
        final int[] depth = new int[n];
        final int[] queue = new int[n];
        final long rawDepth = U.allocateMemory(4L * n);
        final long rawQueue = U.allocateMemory(4L * n);
        final Map<String, Lane> lanes = Map.of("old", new Old(), "lane6", new Lane6(),
            "lane8", new Lane8());
        final Map<String, List<Double>> times = new LinkedHashMap<>();
        for (int round = 0; round < 30; round++) {
            for (final String v : variants) {
                final long t0 = System.nanoTime();
                final int reached = v.equals("solo") ? solo(s, depth, queue) : levels(s, rawDepth, rawQueue,
                    lanes.get(v));
                final double ms = (System.nanoTime() - t0) / 1e6;
                if (round >= 10) {
                    times.computeIfAbsent(v, x -> new ArrayList<>()).add(ms);
                }
                if (reached != n) {
                    throw new IllegalStateException(v + " reached " + reached + " of " + n);
                }
            }
        }
        for (final var e : times.entrySet()) {
            final List<Double> l = e.getValue();
            Collections.sort(l);
            System.out.printf("%-6s median %.2f min %.2f%n", e.getKey(), l.get(l.size() / 2), l.get(0));
        }
    }
}
