import sun.misc.Unsafe;
import java.io.*;
import java.nio.file.*;
import java.util.*;

/**
 * One in-place pull PageRank sweep over float contributions, one thread, variants interleaved in one JVM (30 rounds,
 * the last 20 timed): javac -sourcepath ../2026-12-01-coop-bfs-bottom-up-passes PrLab.java && java -Xmx3g -cp .:../2026-12-01-coop-bfs-bottom-up-passes PrLab GRAPH.el O,OF,G,S,SU.
 * Outside the build (sun.misc.Unsafe).
 */
public class PrLab {
    static final Unsafe U;
    static { try { var f = Unsafe.class.getDeclaredField("theUnsafe"); f.setAccessible(true); U = (Unsafe)f.get(null); } catch (Exception e) { throw new Error(e); } }
    static int n; static long off, tgt; static long[] hoff; static int[] htgt;
    /** Loads GRAPH.el with the loader of ../2026-12-01-coop-bfs-bottom-up-passes/BuLab.java (off-heap CSR, rows sorted). */
    static void load(String file) throws IOException {
        BuLab.load(file);
        n = BuLab.n; off = BuLab.off; tgt = BuLab.tgt; hoff = BuLab.hoff; htgt = BuLab.htgt;
    }


    static float[] fc; static double[] dc; static int[] deg; static float[] fs;

    /** G: GAP's shape: float sum, float scores, contributions in place. */
    static double sweepG(final float base, final float damp) {
        final long off = PrLab.off, tgt = PrLab.tgt; final float[] c = fc; final float[] s = fs; final int[] d = deg;
        double err = 0;
        for (int u = 0; u < n; u++) {
            final long a = tgt + (U.getLong(off + ((long)u << 3)) << 2), e = tgt + (U.getLong(off + ((long)(u + 1) << 3)) << 2);
            float sum = 0;
            for (long p = a; p < e; p += 4) sum += c[U.getInt(p)];
            final float old = s[u];
            final float sc = base + damp * sum;
            s[u] = sc;
            err += Math.abs(sc - old);
            c[u] = d[u] == 0 ? 0 : sc / d[u];
        }
        return err;
    }
    /** S: the gather alone (no stores), float sum: the floor of the random reads; SU (unchecked): no bounds check. */
    static double sweepS(final boolean unchecked) {
        final long off = PrLab.off, tgt = PrLab.tgt; final float[] c = fc;
        double tot = 0;
        long a = tgt + (U.getLong(off) << 2);
        for (int u = 0; u < n; u++) {
            final long e = tgt + (U.getLong(off + ((long)(u + 1) << 3)) << 2);
            float sum = 0;
            for (long p = a; p < e; p += 4) {
                sum += unchecked ? U.getFloat(c, FB + ((long)U.getInt(p) << 2)) : c[U.getInt(p)];
            }
            tot += sum;
            a = e;
        }
        return tot;
    }
    /** T: the targets read alone (no gather). */
    static double sweepT() {
        final long m = U.getLong(off + ((long)n << 3)); long s = 0;
        for (long p = tgt, e = tgt + (m << 2); p < e; p += 4) s += U.getInt(p);
        return s;
    }

    /** O: SoloPageRank.rows' float path before this change (a double sum); OF (floatSum): with a float sum. */
    static double sweepO(final double base, final double damping, final double scale, final boolean floatSum) {
        final long off = PrLab.off, tgt = PrLab.tgt; final float[] single = fc; final int[] degree = deg;
        final double gatherFactor = damping * scale, unscale = 1 / scale;
        double delta = 0, dangling = 0, mass = 0;
        long first = tgt + (U.getLong(off) << 2);
        for (int v = 0; v < n; v++) {
            final long last = tgt + (U.getLong(off + ((long)(v + 1) << 3)) << 2);
            final int k = degree[v];
            final double sum = floatSum ? floatSum(single, first, last) : doubleSum(single, first, last);
            final double out = k == 0 ? unscale : unscale / k;
            final double storedBase = base * out, storedFactor = gatherFactor * out;
            final double r = base + gatherFactor * sum;
            first = last;
            mass += r;
            final double old = single[v];
            final double stored = storedBase + storedFactor * sum;
            if (k == 0) { delta += Math.abs(r - old * scale); dangling += r; } else { delta += Math.abs(r - old * k * scale); }
            single[v] = (float)stored;
        }
        return delta + dangling + mass;
    }

    static double doubleSum(final float[] c, final long at, final long end) {
        double sum = 0;
        for (int i = 0, k = (int)((end - at) >> 2); i < k; i++) sum += c[U.getInt(at + ((long)i << 2))];
        return sum;
    }
    static double floatSum(final float[] c, final long at, final long end) {
        float sum = 0;
        for (int i = 0, k = (int)((end - at) >> 2); i < k; i++) sum += c[U.getInt(at + ((long)i << 2))];
        return sum;
    }

    static final long FB = U.arrayBaseOffset(float[].class);
    public static void main(String[] args) throws IOException {
        load(args[0]);
        final String[] variants = args[1].split(",");
        deg = new int[n]; fc = new float[n]; fs = new float[n];
        for (int v = 0; v < n; v++) deg[v] = (int)(hoff[v + 1] - hoff[v]);
        final float base = 0.15f / n, damp = 0.85f;
        Map<String, List<Double>> times = new LinkedHashMap<>();
        double sink = 0;
        for (int round = 0; round < 30; round++) {
            for (String var : variants) {
                for (int v = 0; v < n; v++) { fs[v] = 1f / n; fc[v] = deg[v] == 0 ? 0 : fs[v] / deg[v]; }
                long t0 = System.nanoTime();
                switch (var) {
                    case "G": sink += sweepG(base, damp); break;
                    case "S": sink += sweepS(false); break;
                    case "T": sink += sweepT(); break;
                    case "SU": sink += sweepS(true); break;
                    case "OF": sink += sweepO(0.15 / n, 0.85, 1.0, true); break;
                    case "O": sink += sweepO(0.15 / n, 0.85, 1.0, false); break;
                }
                double ms = (System.nanoTime() - t0) / 1e6;
                if (round >= 10) times.computeIfAbsent(var, x -> new ArrayList<>()).add(ms);
            }
        }
        for (var e : times.entrySet()) { List<Double> l = e.getValue(); Collections.sort(l);
            System.out.printf("%-3s median %.2f min %.2f%n", e.getKey(), l.get(l.size() / 2), l.get(0)); }
        System.out.println("sink " + sink);
    }
}
