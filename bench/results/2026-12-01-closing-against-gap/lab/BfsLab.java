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

/** coop/solo BFS in one JVM. args: SPEC SOURCE WORKERS ROUNDS VARIANTS(C,S) */
public class BfsLab {
    public static void main(String[] a) {
        CsrGraph g = GraphSpec.parse(a[0]).build(1, false, Progress.none());
        int source = Integer.parseInt(a[1]);
        int workers = Integer.parseInt(a[2]);
        int rounds = Integer.parseInt(a[3]);
        String[] vs = a[4].split(",");
        Mesh mesh = Mesh.builder().name("lab").devices(1).threadsPerDevice(workers).memoryPerDevice(1000L << 20).build();
        try (DeviceGraph dg = DeviceGraph.place(mesh, g, Partition.byEdges(g, 1), false)) {
            AppSettings s = AppSettings.builder().build();
            for (int w = 0; w < 10; w++) for (String v : vs) run(v, dg, source, s);
            double[][] ms = new double[vs.length][rounds];
            long[] lv = new long[vs.length];
            for (int r = 0; r < rounds; r++) for (int i = 0; i < vs.length; i++) {
                AppResult res = run(vs[i], dg, source, s); ms[i][r] = res.nanos() / 1e6; lv[i] = res.counts().iterations();
            }
            for (int i = 0; i < vs.length; i++) { double[] m = ms[i]; Arrays.sort(m);
                System.out.printf("%s %s w%d: median %.2f min %.2f levels %d%n", a[0], vs[i], workers, m[rounds / 2], m[0], lv[i]); }
        }
        mesh.close();
    }
    static AppResult run(String v, DeviceGraph dg, int s, AppSettings st) {
        switch (v) {
            case "C": return CoopBfs.run(dg, s, st);
            case "S": return SoloBfs.run(dg, s, st);
            default: throw new IllegalArgumentException(v);
        }
    }
}
