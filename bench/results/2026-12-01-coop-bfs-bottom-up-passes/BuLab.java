import sun.misc.Unsafe;
import java.io.*;
import java.nio.file.*;
import java.util.*;

/**
 * The harness of this folder (not part of the build): one bottom-up BFS step on one thread, over a graph file loaded
 * into off-heap CSR arrays (rows sorted, duplicates and self-loops dropped, as Overlap and the GAP suite read it), from
 * the state a BFS from SOURCE has before level LEVEL (depths up to LEVEL known, the frontier the vertices at LEVEL), in
 * the shapes below, interleaved in one JVM: 30 timed rounds after 10 untimed, each variant's median and least.
 *
 * <pre>javac BuLab.java && java -Xms4g -Xmx8g BuLab GRAPH.el SOURCE LEVEL A,E8,P,Q,R</pre>
 *
 * A: CoopBfs's scan before this change, row by row. E8/E16/E32: A with a load of the row start 8/16/32 vertices
 * ahead. F0: the vertex loop alone; F1: and each unvisited vertex's first edge, no search (floors, not BFS steps).
 * P: two passes per word, every vertex's first edge without a branch. Q: P, a vertex that is not a candidate reads
 * edge slot 0. R: three passes, the candidates as a mask first (as committed).
 */
public class BuLab {
    static final Unsafe U;
    static { try { var f = Unsafe.class.getDeclaredField("theUnsafe"); f.setAccessible(true); U = (Unsafe)f.get(null); } catch (Exception e) { throw new Error(e); } }
    static int n; static long off, tgt; static long[] hoff; static int[] htgt;

    static void load(String file) throws IOException {
        int[] src = new int[1 << 22], dst = new int[1 << 22]; int k = 0, max = 0;
        try (BufferedReader r = Files.newBufferedReader(Path.of(file))) {
            for (String line; (line = r.readLine()) != null; ) {
                int sp = line.indexOf(' '); int a = Integer.parseInt(line.substring(0, sp));
                int e2 = line.indexOf(' ', sp + 1); int b = Integer.parseInt(e2 < 0 ? line.substring(sp + 1).trim() : line.substring(sp + 1, e2));
                if (a == b) continue;
                if (k + 2 > src.length) { src = Arrays.copyOf(src, src.length * 2); dst = Arrays.copyOf(dst, dst.length * 2); }
                src[k] = a; dst[k++] = b; src[k] = b; dst[k++] = a; max = Math.max(max, Math.max(a, b));
            }
        }
        n = max + 1;
        long[] row = new long[n + 1];
        for (int i = 0; i < k; i++) row[src[i] + 1]++;
        for (int v = 0; v < n; v++) row[v + 1] += row[v];
        long[] pos = row.clone(); int[] t = new int[k];
        for (int i = 0; i < k; i++) t[(int)pos[src[i]]++] = dst[i];
        src = null; dst = null;
        hoff = new long[n + 1]; int w = 0;
        for (int v = 0; v < n; v++) {
            int a = (int)row[v], b = (int)row[v + 1];
            Arrays.sort(t, a, b);
            hoff[v] = w;
            for (int i = a; i < b; i++) if (i == a || t[i] != t[i - 1]) t[w++] = t[i];
        }
        hoff[n] = w;
        htgt = Arrays.copyOf(t, w);
        off = U.allocateMemory(8L * (n + 1)); tgt = U.allocateMemory(4L * w);
        for (int v = 0; v <= n; v++) U.putLong(off + 8L * v, hoff[v]);
        for (int i = 0; i < w; i++) U.putInt(tgt + 4L * i, htgt[i]);
        System.out.println("n=" + n + " edges=" + w);
    }

    static long depth, cur, next; static int nextD;
    static long found, looked;
    static long sink;

    /**
     * A ({@code ahead} 0): CoopBfs.Lane.scan before this change, row by row. E8/E16/E32: A and, at each vertex, a load
     * of the first edge of the row {@code ahead} vertices on (a prefetch the branch mispredicts cannot squash).
     */
    static void scanA(final int from, final int to, final long curBits, final long nextBits, final int ahead) {
        final long off = BuLab.off, tgt = BuLab.tgt, depth = BuLab.depth; final int nextD = BuLab.nextD;
        long found = 0, edgesOfFound = 0, looked = 0, word = 0; int pre = 0;
        for (int v = from; v < to; v++) {
            if ((v & 63) == 0 && v != from) { U.putLong(nextBits + ((long)((v - 1) >>> 6) << 3), word); word = 0; }
            if (ahead > 0) {
                pre += U.getInt(tgt + (U.getLong(off + ((long)Math.min(v + ahead, n - 1) << 3)) << 2));
            }
            final long at = depth + ((long)v << 2);
            if (U.getInt(at) >= 0) continue;
            final long first = U.getLong(off + ((long)v << 3));
            final int degree = (int)(U.getLong(off + ((long)(v + 1) << 3)) - first);
            final long edges = tgt + (first << 2);
            int e = 0;
            while (e < degree) {
                final int u = U.getInt(edges + ((long)e++ << 2));
                if ((U.getLong(curBits + ((long)(u >>> 6) << 3)) & (1L << u)) != 0) {
                    U.putInt(at, nextD); word |= 1L << v; found++; edgesOfFound += degree; break;
                }
            }
            looked += e;
        }
        U.putLong(nextBits + ((long)((to - 1) >>> 6) << 3), word);
        BuLab.found += found; BuLab.looked += looked; sink += pre + edgesOfFound;
    }

    /** F0: the vertex loop alone (depth, offsets); F1: and the first edge's bit. */
    static void scanF(final int from, final int to, final long curBits, final boolean edge) {
        final long off = BuLab.off, tgt = BuLab.tgt, depth = BuLab.depth;
        long acc = 0;
        for (int v = from; v < to; v++) {
            final long at = depth + ((long)v << 2);
            if (U.getInt(at) >= 0) continue;
            final long first = U.getLong(off + ((long)v << 3));
            final int degree = (int)(U.getLong(off + ((long)(v + 1) << 3)) - first);
            acc += degree;
            if (edge && degree > 0) {
                final int u = U.getInt(tgt + (first << 2));
                acc += U.getLong(curBits + ((long)(u >>> 6) << 3)) & (1L << u);
            }
        }
        sink += acc;
    }
    /**
     * P and Q: two passes per word of 64 vertices: first, without a branch, each vertex's first edge against the
     * frontier (the 64 rows' first lines in flight at once); then the search goes on, from the second edge, for the
     * vertices whose first edge missed. P takes the candidates from the offsets and the depth's sign and reads every
     * vertex's row start; Q ({@code q}) takes them from the degree-encoded depth (below -1), and a vertex that is not a
     * candidate reads edge slot 0 (a cached line) instead.
     */
    static void scanPQ(final int from, final int to, final long curBits, final long nextBits, final boolean q) {
        final long off = BuLab.off, tgt = BuLab.tgt, depth = BuLab.depth;
        final long lastEdge = U.getLong(off + ((long)n << 3)) - 1;
        long found = 0, looked = 0;
        for (int base = from; base < to; base += 64) {
            final int end = Math.min(64, to - base);
            long hits = 0, pending = 0;
            for (int b = 0; b < end; b++) {
                final int v = base + b;
                final int d = U.getInt(depth + ((long)v << 2));
                final long first = U.getLong(off + ((long)v << 3));
                final long deg = q ? -1L - d : U.getLong(off + ((long)(v + 1) << 3)) - first; // Q: negative if visited
                final long cand = q ? (d + 1) >>> 31 : (d >>> 31) & (-deg >>> 63); // unvisited, with an edge
                final int u = U.getInt(tgt + ((q ? first & -cand : Math.min(first, lastEdge)) << 2));
                final long hit = (U.getLong(curBits + ((long)(u >>> 6) << 3)) >>> u) & cand;
                hits |= hit << b;
                pending |= ((hit ^ cand) & ((1 - deg) >>> 63)) << b; // missed, and a second edge
                looked += cand;
            }
            found += finish(base, pending, hits, curBits, nextBits);
        }
        BuLab.found += found; BuLab.looked += looked;
    }

    /** R: the word's candidates as a mask first (from the depths alone), then the first edges of the candidates only. */
    static void scanR(final int from, final int to, final long curBits, final long nextBits) {
        final long off = BuLab.off, tgt = BuLab.tgt, depth = BuLab.depth; final int nextD = BuLab.nextD;
        long found = 0, looked = 0;
        for (int base = from; base < to; base += 64) {
            final int end = Math.min(64, to - base);
            long cand = 0, multi = 0;
            for (int b = 0; b < end; b++) {
                final int d = U.getInt(depth + ((long)(base + b) << 2));
                cand |= (long)((d + 1) >>> 31) << b;
                multi |= (long)((d + 2) >>> 31) << b;
            }
            long hits = 0;
            for (long c = cand; c != 0; c &= c - 1) {
                final int b = Long.numberOfTrailingZeros(c);
                final int u = U.getInt(tgt + (U.getLong(off + ((long)(base + b) << 3)) << 2));
                hits |= ((U.getLong(curBits + ((long)(u >>> 6) << 3)) >>> u) & 1) << b;
            }
            looked += Long.bitCount(cand);
            final long pending = cand & ~hits & multi;
            found += finish(base, pending, hits, curBits, nextBits);
        }
        BuLab.found += found; BuLab.looked += looked;
    }

    /**
     * The end of a word in P, Q and R: the rows of {@code pending} searched on from their second edge, the word of the
     * next bitmap and the depths of the vertices found written. @return the vertices found
     */
    static long finish(final int base, long pending, long hits, final long curBits, final long nextBits) {
        final long off = BuLab.off, tgt = BuLab.tgt, depth = BuLab.depth; final int nextD = BuLab.nextD;
        long looked = 0;
        while (pending != 0) {
            final int b = Long.numberOfTrailingZeros(pending);
            pending &= pending - 1;
            final int v = base + b;
            final long first = U.getLong(off + ((long)v << 3));
            final int degree = (int)(U.getLong(off + ((long)(v + 1) << 3)) - first);
            final long edges = tgt + (first << 2);
            int e = 1;
            while (e < degree) {
                final int u = U.getInt(edges + ((long)e++ << 2));
                if ((U.getLong(curBits + ((long)(u >>> 6) << 3)) & (1L << u)) != 0) {
                    hits |= 1L << b;
                    break;
                }
            }
            looked += e - 1;
        }
        U.putLong(nextBits + ((long)(base >>> 6) << 3), hits);
        for (long h = hits; h != 0; h &= h - 1) {
            U.putInt(depth + ((long)(base + Long.numberOfTrailingZeros(h)) << 2), nextD);
        }
        BuLab.looked += looked;
        return Long.bitCount(hits);
    }

    public static void main(String[] args) throws IOException {
        load(args[0]); final int s = Integer.parseInt(args[1]); final int lvl = Integer.parseInt(args[2]);
        final String[] variants = args[3].split(",");
        // reference depths by a plain BFS
        int[] ref = new int[n]; Arrays.fill(ref, -1); int[] q = new int[n]; ref[s] = 0; q[0] = s; int h = 0, t = 1;
        while (h < t) { int u = q[h++]; for (long e = hoff[u]; e < hoff[u + 1]; e++) { int v = htgt[(int)e]; if (ref[v] < 0) { ref[v] = ref[u] + 1; q[t++] = v; } } }
        // state before bottom-up level lvl: depths <= lvl known, frontier = depth lvl
        int[] init = new int[n]; long[] curH = new long[(n + 63) >> 6]; int fsize = 0;
        for (int v = 0; v < n; v++) { init[v] = ref[v] >= 0 && ref[v] <= lvl ? ref[v] : -1 - (int)(hoff[v + 1] - hoff[v]); if (ref[v] == lvl) { curH[v >>> 6] |= 1L << v; fsize++; } }
        int expect = 0; for (int v = 0; v < n; v++) if (ref[v] == lvl + 1) expect++;
        System.out.println("level " + lvl + " frontier " + fsize + " next " + expect);
        depth = U.allocateMemory(4L * n); cur = U.allocateMemory(8L * curH.length); next = U.allocateMemory(8L * curH.length);
        for (int i = 0; i < curH.length; i++) U.putLong(cur + 8L * i, curH[i]);
        nextD = lvl + 1;
        Map<String, List<Double>> times = new LinkedHashMap<>();
        for (int round = 0; round < 40; round++) {
            for (String var : variants) {
                for (int v = 0; v < n; v++) U.putInt(depth + 4L * v, init[v]);
                found = 0; looked = 0;
                long t0 = System.nanoTime();
                for (int k = 0; k < n; k += 1024) {
                    int to = Math.min(n, k + 1024);
                    switch (var) {
                        case "A": scanA(k, to, cur, next, 0); break;
                        case "R": scanR(k, to, cur, next); break;
                        case "Q": scanPQ(k, to, cur, next, true); break;
                        case "P": scanPQ(k, to, cur, next, false); break;
                        case "F0": scanF(k, to, cur, false); break;
                        case "F1": scanF(k, to, cur, true); break;
                        case "E8": scanA(k, to, cur, next, 8); break;
                        case "E16": scanA(k, to, cur, next, 16); break;
                        case "E32": scanA(k, to, cur, next, 32); break;
                    }
                }
                double ms = (System.nanoTime() - t0) / 1e6;
                if (found != expect && !var.startsWith("F")) throw new IllegalStateException(var + " found " + found + " expected " + expect);
                if (round >= 10) times.computeIfAbsent(var, x -> new ArrayList<>()).add(ms);
                if (round == 39) System.out.println(var + " looked " + looked);
            }
        }
        for (var e : times.entrySet()) { List<Double> l = e.getValue(); Collections.sort(l);
            System.out.printf("%-3s median %.2f min %.2f%n", e.getKey(), l.get(l.size() / 2), l.get(0)); }
    }
}
