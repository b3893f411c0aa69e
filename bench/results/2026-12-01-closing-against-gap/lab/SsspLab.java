package dev.overlap.graph.solo;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import java.util.Arrays;

/** coop SSSP variants interleaved in one JVM. args: SPEC SOURCE DELTA WORKERS ROUNDS VARIANTS(A,B,...) */
public class SsspLab {
    interface V { AppResult run(DeviceGraph dg, int s, AppSettings st); }
    public static void main(String[] a) {
        CsrGraph g = GraphSpec.parse(a[0]).build(1, true, Progress.none());
        int source = Integer.parseInt(a[1]);
        int workers = Integer.parseInt(a[3]);
        int rounds = Integer.parseInt(a[4]);
        String[] vs = a[5].split(",");
        final GapLoop gl = new GapLoop(g);
        GL = gl;
        Mesh mesh = Mesh.builder().name("lab").devices(1).threadsPerDevice(workers).memoryPerDevice(2000L << 20).build();
        try (DeviceGraph dg = DeviceGraph.place(mesh, g, Partition.byEdges(g, 1), true)) {
            { SoloGraph sg = SoloGraph.of(dg); long m = g.edgeCount(); long p = org.agrona.UnsafeApi.allocateMemory(8 * m);
              for (long e = 0; e < m; e++) org.agrona.UnsafeApi.putLong(null, p + 8 * e, (org.agrona.UnsafeApi.getInt(null, sg.targetsAt() + 4 * e) & 0xffffffffL) | ((long) org.agrona.UnsafeApi.getInt(null, sg.weightsAt() + 4 * e) << 32));
              CoopSsspI.PAIRS = p; }
            AppSettings s = AppSettings.builder().delta(Integer.parseInt(a[2])).build();
            long[] ref = null;
            for (String v : vs) { AppResult r = pick(v).run(dg, source, s); if (ref == null) ref = r.distances(); else if (!Arrays.equals(ref, r.distances())) throw new AssertionError(v + " differs"); }
            for (int w = 0; w < 8; w++) for (String v : vs) pick(v).run(dg, source, s);
            double[][] ms = new double[vs.length][rounds];
            long[] work = new long[vs.length];
            for (int r = 0; r < rounds; r++) for (int i = 0; i < vs.length; i++) {
                AppResult res = pick(vs[i]).run(dg, source, s); ms[i][r] = res.nanos() / 1e6; work[i] = res.counts().visited();
            }
            for (int i = 0; i < vs.length; i++) { double[] m = ms[i]; Arrays.sort(m);
                System.out.printf("%s %s w%d: median %.1f min %.1f visited %d%n", a[0], vs[i], workers, m[rounds / 2], m[0], work[i]); }
        }
        mesh.close();
    }
    static GapLoop GL;
    static AppResult gapRun(int s, AppSettings st, boolean p) {
        long t0 = System.nanoTime(); int[] d = GL.run(s, st.delta(), p); long ns = System.nanoTime() - t0;
        long[] out = new long[d.length]; for (int i = 0; i < d.length; i++) out[i] = d[i] >= Integer.MAX_VALUE / 2 ? dev.overlap.graph.ref.Dijkstra.UNREACHED : d[i];
        return AppResult.sssp(out, ns, new dev.overlap.graph.app.WorkCounts(0, GL.visited[0], 0, 0, 0, 0, 0, 0, 0));
    }
    static V pick(String v) {
        switch (v) {
            case "A": return CoopSssp::run;
            case "S": return SoloSssp::run;
            case "B": return CoopSsspB::run;
            case "I": return CoopSsspI::run;
            case "N": return CoopSsspN::run;
            case "G": return (dg, s, st) -> gapRun(s, st, false);
            case "P": return (dg, s, st) -> gapRun(s, st, true);
            default: throw new IllegalArgumentException(v);
        }
    }
}
