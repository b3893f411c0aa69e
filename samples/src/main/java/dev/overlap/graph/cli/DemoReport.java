package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.report.TextTable;

import dev.overlap.graph.app.Warmup;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link DemoRun.Result}: the comparison table with its header and notes, or the one JSON object of
 * {@code --json}. Times are rounded to the microsecond in JSON. Immutable; thread-safe.
 */
final class DemoReport {
    private final int devices;
    private final int threads;
    private final String partition;
    private final Warmup warmup;
    private final int runs;
    private final int cores;

    /**
     * @param devices   devices of the mesh
     * @param threads   workers per device
     * @param partition the partitioning's name
     * @param warmup    each row's warm-up
     * @param runs      timed runs per row
     * @param cores     the machine's cores
     */
    DemoReport(final int devices, final int threads, final String partition, final Warmup warmup, final int runs,
        final int cores) {
        this.devices = devices;
        this.threads = threads;
        this.partition = partition;
        this.warmup = warmup;
        this.runs = runs;
        this.cores = cores;
    }

    /** @return the JSON object: settings, graphs, rows, notes, verdict and wall time */
    String json(final DemoRun.Result result, final double wallSeconds) throws IOException {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "demo");
        m.put("devices", devices);
        m.put("threadsPerDevice", threads);
        m.put("partition", partition);
        m.put("warmups", warmup.runs());
        m.put("warmupMillis", warmup.minMillis());
        m.put("runs", runs);
        final List<Map<String, Object>> graphs = new ArrayList<>();
        for (final DemoGraph g : result.graphs) {
            final Map<String, Object> info = new LinkedHashMap<>();
            info.put("name", g.name());
            info.put("vertices", g.vertices());
            info.put("edges", g.edges());
            info.put("source", g.source());
            info.put("weights", g.weights());
            info.put("generateMs", round(g.generateMillis()));
            graphs.add(info);
        }
        m.put("graphs", graphs);
        final List<Map<String, Object>> list = new ArrayList<>();
        for (final DemoRow r : result.rows) {
            list.add(row(r));
        }
        m.put("rows", list);
        m.put("notes", new ArrayList<>(result.notes));
        m.put("verified", result.failed().isEmpty() ? "passed" : "FAILED");
        m.put("wallSeconds", round(wallSeconds));
        return JSON.std.asString(m);
    }

    private static Map<String, Object> row(final DemoRow r) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("app", r.app);
        m.put("graph", r.graph);
        m.put("mode", r.mode);
        if (r.autoPick) {
            m.put("autoPick", true);
        }
        m.put("threads", r.threads);
        m.put("timeMs", round(r.medianMillis));
        final List<Double> times = new ArrayList<>();
        for (final double t : r.runMillis()) {
            times.add(round(t));
        }
        m.put("runTimesMs", times);
        if (!Double.isNaN(r.mteps())) {
            m.put("edgesTraversed", r.edgesTraversed);
            m.put("mteps", round(r.mteps()));
        }
        if (!Double.isNaN(r.sequentialMillis)) {
            m.put("sequentialMs", round(r.sequentialMillis));
            m.put("vsSequential", round(r.vsSequential()));
        }
        if (r.counts != null) {
            m.put("iterations", r.counts.iterations());
            m.put("visited", r.counts.visited());
            m.put("ideal", r.counts.ideal());
            m.put("normalizedWork", round(r.counts.normalizedWork()));
            m.put("edgesScanned", r.counts.edgesScanned());
            m.put("localPushes", r.counts.localPushes());
            m.put("remotePushes", r.counts.remotePushes());
            m.put("remoteAtomics", r.counts.remoteAtomics());
            m.put("messages", r.counts.messages());
            m.put("bytesSent", r.counts.bytesSent());
        }
        if (r.transfer != null) {
            m.put("transfer", r.transfer);
        }
        if (!Double.isNaN(r.profileMillis)) {
            m.put("profileMs", round(r.profileMillis));
        }
        m.put("verified", r.verified());
        m.put("verification", r.verification.detail());
        return m;
    }

    /** Prints the header (mesh, runs, graphs), the table, its legend, the notes and the verdict with the wall time. */
    void print(final PrintWriter out, final DemoRun.Result result, final double wallSeconds) {
        out.printf(Locale.ROOT, "overlap demo: %d devices x %d worker%s (%s partitioning, %d cores), %s then the "
            + "median of %d%n", devices, threads, threads == 1 ? "" : "s", partition, cores, warmup.describe(), runs);
        for (final DemoGraph g : result.graphs) {
            out.printf(Locale.ROOT, "  %s: %,d vertices, %,d edges, source %d, weights %s, generated in %.0f ms%n",
                g.name(), g.vertices(), g.edges(), g.source(), g.weights(), round(g.generateMillis()));
        }
        out.println();
        final TextTable t = new TextTable("<app", "<graph", "<mode", "threads", "time ms", "MTEPS", "vs seq",
            "visited/ideal", "local pushes", "remote pushes", "messages", "<verified");
        for (final DemoRow r : result.rows) {
            final boolean work = r.counts != null && r.counts.ideal() > 0;
            t.row(r.app, r.graph, r.autoPick ? r.mode + " " + DemoRun.AUTO_MARK : r.mode, r.threads,
                TextTable.fixed(r.medianMillis, r.medianMillis < 10 ? 2 : 1),
                TextTable.fixed(r.mteps(), 1), TextTable.fixed(r.vsSequential(), 2) + "x",
                work ? TextTable.fixed(r.counts.normalizedWork(), 2) : null,
                r.onMesh && work ? TextTable.count(r.counts.localPushes()) : null,
                r.onMesh && work ? TextTable.count(r.counts.remotePushes()) : null,
                r.onMesh ? TextTable.count(r.counts.messages()) : null, r.reference ? "reference" : r.verification.passed()
                    ? "yes" : "NO");
        }
        out.print(t.toText());
        out.println();
        out.println("time: median of the timed runs, algorithm only (not generation or placement); MTEPS: edges out of "
            + "the reached vertices per microsecond; vs seq: single-threaded Java CSR time / this time; messages: "
            + "batched puts to other devices (Jacobi: chunk copies); " + DemoRun.AUTO_MARK + ": the mode bfs, pr and "
            + "sssp take by default (--mode auto) on that graph");
        for (final String n : result.notes) {
            out.println("note: " + n);
        }
        out.printf(Locale.ROOT, "%s; wall time %.1f s (generation, JIT warm-up and checks included)%n",
            result.failed().isEmpty() ? "every answer verified against the sequential reference"
                : "VERIFICATION FAILED (see standard error)", wallSeconds);
    }

    /** @return {@code x} rounded to three decimals (infinities and NaN as they are) */
    static double round(final double x) {
        return Double.isFinite(x) ? Math.round(x * 1000) / 1000.0 : x;
    }
}
