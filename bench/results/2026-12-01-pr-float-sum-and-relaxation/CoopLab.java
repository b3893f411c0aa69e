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

/** coop GS PageRank, fixed tolerance: median time and sweeps. args: SPEC TOL WORKERS RUNS */
public class CoopLab {
    public static void main(String[] a) {
        CsrGraph g = GraphSpec.parse(a[0]).build(1, false, Progress.none());
        CsrGraph t = g.transpose();
        int workers = Integer.parseInt(a[2]);
        Mesh mesh = Mesh.builder().name("lab").devices(1).threadsPerDevice(workers).memoryPerDevice(1L << 30).build();
        try (DeviceGraph dg = DeviceGraph.place(mesh, t, Partition.byEdges(t, 1), false)) {
            AppSettings s = AppSettings.builder().tolerance(Double.parseDouble(a[1])).pageRankSweep(AppSettings.PageRankSweep.GAUSS_SEIDEL).build();
            int runs = Integer.parseInt(a[3]);
            double[] ms = new double[runs]; long it = 0;
            for (int w = 0; w < 10; w++) CoopPageRank.run(dg, null, s);
            for (int r = 0; r < runs; r++) { AppResult res = CoopPageRank.run(dg, null, s); ms[r] = res.nanos() / 1e6; it = res.counts().iterations(); }
            Arrays.sort(ms);
            System.out.printf("%s median %.2f ms min %.2f sweeps %d per-sweep %.2f%n", a[0], ms[runs / 2], ms[0], it, ms[runs / 2] / it);
        }
        mesh.close();
    }
}
