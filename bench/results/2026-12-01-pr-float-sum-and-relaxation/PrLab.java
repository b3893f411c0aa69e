import sun.misc.Unsafe;
import java.io.*;
import java.nio.file.*;
import java.util.*;

/**
 * One in-place pull PageRank sweep over float contributions, one thread, variants interleaved in one JVM (30 rounds,
 * the last 20 timed): java -Xmx3g -cp . PrLab GRAPH.el O,OF,G,S,SU. Outside the build (sun.misc.Unsafe).
 */
public class PrLab {
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
    /** S: the gather alone (no stores), float sum: the floor of the random reads. */
    static double sweepS() {
        final long off = PrLab.off, tgt = PrLab.tgt; final float[] c = fc;
        double tot = 0;
        long a = tgt + (U.getLong(off) << 2);
        for (int u = 0; u < n; u++) {
            final long e = tgt + (U.getLong(off + ((long)(u + 1) << 3)) << 2);
            float sum = 0;
            for (long p = a; p < e; p += 4) sum += c[U.getInt(p)];
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

    /** O: SoloPageRank.rows' float path as committed (double arithmetic, change, dangling and mass sums, the scale). */
    static double sweepO(final double base, final double damping, final double scale) {
        final long off = PrLab.off, tgt = PrLab.tgt; final float[] single = fc; final int[] degree = deg;
        final double gatherFactor = damping * scale, unscale = 1 / scale;
        double delta = 0, dangling = 0, mass = 0;
        long first = tgt + (U.getLong(off) << 2);
        for (int v = 0; v < n; v++) {
            final long last = tgt + (U.getLong(off + ((long)(v + 1) << 3)) << 2);
            final int k = degree[v];
            double sum = 0;
            for (int i = 0, c = (int)((last - first) >> 2); i < c; i++) sum += single[U.getInt(first + ((long)i << 2))];
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

    /** OF: O with a float sum: SoloPageRank.rows' float path as committed (double arithmetic, change, dangling and mass sums, the scale). */
    static double sweepOF(final double base, final double damping, final double scale) {
        final long off = PrLab.off, tgt = PrLab.tgt; final float[] single = fc; final int[] degree = deg;
        final double gatherFactor = damping * scale, unscale = 1 / scale;
        double delta = 0, dangling = 0, mass = 0;
        long first = tgt + (U.getLong(off) << 2);
        for (int v = 0; v < n; v++) {
            final long last = tgt + (U.getLong(off + ((long)(v + 1) << 3)) << 2);
            final int k = degree[v];
            float sum = 0;
            for (int i = 0, c = (int)((last - first) >> 2); i < c; i++) sum += single[U.getInt(first + ((long)i << 2))];
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

    static final long FB = U.arrayBaseOffset(float[].class);
    /** SU: S with the contributions read through Unsafe (no bounds check). */
    static double sweepSU() {
        final long off = PrLab.off, tgt = PrLab.tgt; final float[] c = fc;
        double tot = 0;
        long a = tgt + (U.getLong(off) << 2);
        for (int u = 0; u < n; u++) {
            final long e = tgt + (U.getLong(off + ((long)(u + 1) << 3)) << 2);
            float sum = 0;
            for (long p = a; p < e; p += 4) sum += U.getFloat(c, FB + ((long)U.getInt(p) << 2));
            tot += sum;
            a = e;
        }
        return tot;
    }
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
                    case "S": sink += sweepS(); break;
                    case "T": sink += sweepT(); break;
                    case "SU": sink += sweepSU(); break;
                    case "OF": sink += sweepOF(0.15 / n, 0.85, 1.0); break;
                    case "O": sink += sweepO(0.15 / n, 0.85, 1.0); break;
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
