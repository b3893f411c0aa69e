package dev.overlap.graph.report;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.ref.Verification;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one run of an app measured: the setting (app, mode, graph, devices), the times, the TEPS figure for
 * traversals, iterations, the work counts (Atos Table III's visited vs. ideal), the traffic, the verification, and
 * app-specific extras. Renders as an aligned human table or as JSON.
 *
 * <p>TEPS: {@code edgesTraversed / time}, where edges traversed is the number of directed edges out of the vertices
 * the source reaches (for an undirected graph, twice its undirected edges in the component: each direction is an
 * edge of the CSR). It does not depend on how much redundant work a run did; {@code edgesScanned} shows that.
 *
 * <p>Immutable value; thread-safe.
 */
public final class RunReport {
    private final String app;
    private final String mode;
    private final String graph;
    private final long vertices;
    private final long edges;
    private final int devices;
    private final int threadsPerDevice;
    private final String partition;
    private final double loadMillis;
    private final double placeMillis;
    private final double millis;
    private final long edgesTraversed;
    private final WorkCounts counts;
    private final Verification verification;
    private final Map<String, Object> extras;

    private RunReport(final Builder b) {
        this.app = b.app;
        this.mode = b.mode;
        this.graph = b.graph;
        this.vertices = b.vertices;
        this.edges = b.edges;
        this.devices = b.devices;
        this.threadsPerDevice = b.threadsPerDevice;
        this.partition = b.partition;
        this.loadMillis = b.loadMillis;
        this.placeMillis = b.placeMillis;
        this.millis = b.millis;
        this.edgesTraversed = b.edgesTraversed;
        this.counts = Objects.requireNonNull(b.counts, "counts");
        this.verification = Objects.requireNonNull(b.verification, "verification");
        this.extras = Collections.unmodifiableMap(new LinkedHashMap<>(b.extras));
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the app name (bfs, pr, sssp, jacobi) */
    public String app() {
        return app;
    }

    /** @return algorithm time in milliseconds */
    public double millis() {
        return millis;
    }

    /** @return millions of traversed edges per second, or NaN when not a traversal */
    public double mteps() {
        return edgesTraversed > 0 && millis > 0 ? edgesTraversed / (millis * 1e3) : Double.NaN;
    }

    /** @return the work counts */
    public WorkCounts counts() {
        return counts;
    }

    /** @return the verification outcome */
    public Verification verification() {
        return verification;
    }

    /** @return app-specific extras, in insertion order */
    public Map<String, Object> extras() {
        return extras;
    }

    /** @return every field as an ordered map (the JSON object) */
    public Map<String, Object> toMap() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("app", app);
        m.put("mode", mode);
        m.put("graph", graph);
        m.put("vertices", vertices);
        m.put("edges", edges);
        m.put("devices", devices);
        m.put("threadsPerDevice", threadsPerDevice);
        m.put("partition", partition);
        m.put("loadMs", round(loadMillis));
        m.put("placeMs", round(placeMillis));
        m.put("timeMs", round(millis));
        if (edgesTraversed > 0) {
            m.put("edgesTraversed", edgesTraversed);
            m.put("mteps", round(mteps()));
        }
        m.put("iterations", counts.iterations());
        m.put("visited", counts.visited());
        m.put("ideal", counts.ideal());
        m.put("normalizedWork", round(counts.normalizedWork()));
        m.put("edgesScanned", counts.edgesScanned());
        m.put("localPushes", counts.localPushes());
        m.put("remotePushes", counts.remotePushes());
        m.put("remoteAtomics", counts.remoteAtomics());
        m.put("messages", counts.messages());
        m.put("bytesSent", counts.bytesSent());
        m.putAll(extras);
        m.put("verified", verification.isSkipped() ? "skipped" : verification.passed() ? "passed" : "FAILED");
        m.put("verification", verification.detail());
        return m;
    }

    private static double round(final double x) {
        return Double.isFinite(x) ? Math.round(x * 1000) / 1000.0 : x;
    }

    /** @return the report as one JSON object on one line */
    public String toJson() {
        try {
            return JSON.std.asString(toMap());
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the report as an aligned two-column table, one field per line */
    public String toTable() {
        final Map<String, Object> m = toMap();
        int width = 0;
        for (final String k : m.keySet()) {
            width = Math.max(width, k.length());
        }
        final StringBuilder sb = new StringBuilder();
        for (final Map.Entry<String, Object> e : m.entrySet()) {
            final Object v = e.getValue();
            final String text = v instanceof Double ? formatDouble((Double)v)
                : v instanceof Long || v instanceof Integer ? String.format(Locale.ROOT, "%,d", ((Number)v).longValue())
                : String.valueOf(v);
            sb.append(String.format(Locale.ROOT, "%-" + width + "s  %s%n", e.getKey(), text));
        }
        return sb.toString();
    }

    private static String formatDouble(final double d) {
        final double a = Math.abs(d);
        return a == 0 || (a >= 0.01 && a < 1e9) ? String.format(Locale.ROOT, "%.3f", d)
            : String.format(Locale.ROOT, "%.4g", d);
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private String app = "?";
        private String mode = "?";
        private String graph = "?";
        private long vertices;
        private long edges;
        private int devices;
        private int threadsPerDevice;
        private String partition = "range";
        private double loadMillis;
        private double placeMillis;
        private double millis;
        private long edgesTraversed;
        private WorkCounts counts;
        private Verification verification;
        private final Map<String, Object> extras = new LinkedHashMap<>();

        private Builder() {
        }

        /** @param name app name */
        public Builder app(final String name) {
            this.app = name;
            return this;
        }

        /** @param m execution mode */
        public Builder mode(final String m) {
            this.mode = m;
            return this;
        }

        /**
         * @param description graph name
         * @param n           vertices
         * @param m           directed edges
         */
        public Builder graph(final String description, final long n, final long m) {
            this.graph = description;
            this.vertices = n;
            this.edges = m;
            return this;
        }

        /**
         * @param count   devices
         * @param threads workers per device
         * @param kind    partitioning
         */
        public Builder mesh(final int count, final int threads, final String kind) {
            this.devices = count;
            this.threadsPerDevice = threads;
            this.partition = kind;
            return this;
        }

        /**
         * @param load  graph load or generation time, ms
         * @param place placement into device memory, ms
         * @param run   algorithm time, ms
         */
        public Builder times(final double load, final double place, final double run) {
            this.loadMillis = load;
            this.placeMillis = place;
            this.millis = run;
            return this;
        }

        /** @param traversed edges traversed (TEPS numerator); 0 for non-traversals */
        public Builder edgesTraversed(final long traversed) {
            this.edgesTraversed = traversed;
            return this;
        }

        /** @param c work counts */
        public Builder counts(final WorkCounts c) {
            this.counts = c;
            return this;
        }

        /** @param v verification outcome */
        public Builder verification(final Verification v) {
            this.verification = v;
            return this;
        }

        /** Adds an app-specific field (string, number or boolean). */
        public Builder extra(final String key, final Object value) {
            extras.put(key, value);
            return this;
        }

        /** @return the report */
        public RunReport build() {
            return new RunReport(this);
        }
    }
}
