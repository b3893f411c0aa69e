import java.util.*;
/**
 * In-place (Gauss-Seidel) PageRank sweeps in double, one thread, rows in id order, with an over-relaxation schedule:
 * the L1 error to the converged ranks (power iteration in double to an L1 change of 1e-13) after each sweep.
 * java -Xmx4g -Dsweeps=N -cp . PrConv GRAPH.el SCHEDULE,SCHEDULE,... where a schedule is START:W1/W2/...: START u (every
 * rank equal, the isolated rows at their own rank, as SoloPageRank.PullState) or a weight a (that share of the rank
 * in proportion to the degree); Wk the factor of sweep k (the last one repeats), or A (Young's factor from sweep 3 on,
 * fixed after it), B (Young's factor re-estimated after every sweep, never lowered, at most 1.6: the rule Relaxation
 * keeps, with its cap at 1.5), C (B, at least 1.1). Needs PrLab.java (its loader) beside it.
 */
public class PrConv {
    static double lastDelta, prevDelta, lastOmega = 1, omegaA = 1;
    /** A: omega 1 until sweep 3, then Young's formula from the last ratio of changes, fixed. B: re-estimated every sweep. */
    static double adaptive(String kind, int sweep) {
        if (sweep <= 2) { omegaA = 1; return 1; }
        double lam = lastDelta / prevDelta;
        if (kind.equals("A") && sweep > 3) return omegaA;
        double w = lastOmega;
        double mu2 = (lam + w - 1) * (lam + w - 1) / (lam * w * w);
        mu2 = Math.min(mu2, 0.99);
        double om = 2 / (1 + Math.sqrt(1 - mu2));
        om = Math.max(om, lastOmega);
        if (kind.equals("C")) om = Math.max(om, 1.1);
        om = Math.min(om, 1.6);
        omegaA = om;
        return om;
    }
    public static void main(String[] a) throws Exception {
        PrLab.load(a[0]);
        final int n = PrLab.n; final long[] off = PrLab.hoff; final int[] t = PrLab.htgt;
        final double d = 0.85;
        int[] deg = new int[n]; int iso = 0;
        for (int v = 0; v < n; v++) { deg[v] = (int)(off[v + 1] - off[v]); if (deg[v] == 0) iso++; }
        // reference: power iteration in double
        double[] x = new double[n]; Arrays.fill(x, 1.0 / n); double[] y = new double[n];
        for (int it = 0; it < 300; it++) {
            double dang = 0; for (int v = 0; v < n; v++) if (deg[v] == 0) dang += x[v];
            double base = (1 - d) / n + d * dang / n; double ch = 0;
            for (int v = 0; v < n; v++) { double s = 0; for (long e = off[v]; e < off[v + 1]; e++) { int u = t[(int)e]; s += x[u] / deg[u]; } y[v] = base + d * s; ch += Math.abs(y[v] - x[v]); }
            double[] z = x; x = y; y = z;
            if (ch < 1e-13) break;
        }
        final double[] ref = x;
        long m2 = off[n];
        for (String w : a[1].split(",")) {
            String[] parts = w.split(":"); // start:omega1/omega2/...
            String start = parts[0]; String[] oms = parts[1].split("/");
            final boolean f32 = a.length > 2;
            double isoRank = (1 - d) / n / (1 - d * iso / (double)n), other = (1 - iso * isoRank) / (n - iso);
            double[] r = new double[n]; double[] c = new double[n];
            for (int v = 0; v < n; v++) { r[v] = deg[v] == 0 ? isoRank : other; }
            if (!start.equals("u")) { double al = Double.parseDouble(start); double tot = 0;
                for (int v = 0; v < n; v++) { if (deg[v] > 0) r[v] = (1 - al) * other + al * (1 - iso * isoRank) * deg[v] / (double)m2; tot += r[v]; }
                for (int v = 0; v < n; v++) r[v] /= tot; }
            for (int v = 0; v < n; v++) c[v] = deg[v] == 0 ? r[v] : r[v] / deg[v];
            double dang = 0; for (int v = 0; v < n; v++) if (deg[v] == 0) dang += r[v];
            StringBuilder sb = new StringBuilder(w + ":");
            for (int sweep = 1; sweep <= Integer.getInteger("sweeps", 8); sweep++) {
                final String os = oms[Math.min(sweep - 1, oms.length - 1)];
                final double omega = os.equals("A") || os.equals("B") || os.equals("C") ? adaptive(os, sweep) : Double.parseDouble(os);
                lastOmega = omega;
                double base = (1 - d) / n + d * dang / n, mass = 0, nd = 0, ch = 0;
                for (int v = 0; v < n; v++) {
                    double s = 0; for (long e = off[v]; e < off[v + 1]; e++) s += c[t[(int)e]];
                    double g = base + d * s;
                    double nr = (1 - omega) * r[v] + omega * g;
                    ch += Math.abs(nr - r[v]);
                    r[v] = nr; c[v] = deg[v] == 0 ? nr : nr / deg[v];
                    if (f32) c[v] = (float)c[v];
                    mass += nr; if (deg[v] == 0) nd += nr;
                }
                for (int v = 0; v < n; v++) { r[v] /= mass; c[v] /= mass; }
                dang = nd / mass;
                prevDelta = lastDelta; lastDelta = ch / mass;
                double err = 0; for (int v = 0; v < n; v++) err += Math.abs(r[v] - ref[v]);
                sb.append(String.format(" %d:%.2e(w%.3f)", sweep, err, omega));
            }
            System.out.println(sb);
        }
    }
}
