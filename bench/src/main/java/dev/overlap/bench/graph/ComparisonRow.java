package dev.overlap.bench.graph;

import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.ref.Verification;

/**
 * One implementation's measurement of one app on one graph: every timed run, the edges the answer traversed, its
 * verification, and the single-threaded Java CSR median of the same app and graph it is compared with (known once the
 * graph is done: a forked measurement reports its row without it). Immutable; thread-safe.
 */
final class ComparisonRow {
    final String graph;
    final GraphApp app;
    final String impl;
    /** Threads, as shown: {@code 1}, or {@code devices x workers} for Overlap. */
    final String threads;
    private final double[] runMillis;
    final long edgesTraversed;
    final Verification verification;
    /** The Java CSR median of the same app and graph; NaN until {@link #withJavaMillis}. */
    final double javaMillis;

    ComparisonRow(final String graph, final GraphApp app, final String impl, final String threads,
        final double[] runMillis, final long edgesTraversed, final Verification verification) {
        this(graph, app, impl, threads, runMillis, edgesTraversed, verification, Double.NaN);
    }

    private ComparisonRow(final String graph, final GraphApp app, final String impl, final String threads,
        final double[] runMillis, final long edgesTraversed, final Verification verification, final double javaMillis) {
        if (runMillis.length == 0) {
            throw new IllegalArgumentException("no runs");
        }
        this.graph = graph;
        this.app = app;
        this.impl = impl;
        this.threads = threads;
        this.runMillis = runMillis.clone();
        this.edgesTraversed = edgesTraversed;
        this.verification = verification;
        this.javaMillis = javaMillis;
    }

    /** @return this row compared with a Java CSR median of {@code millis} */
    ComparisonRow withJavaMillis(final double millis) {
        return new ComparisonRow(graph, app, impl, threads, runMillis, edgesTraversed, verification, millis);
    }

    /** @return every timed run's milliseconds, in run order (a copy) */
    double[] runMillis() {
        return runMillis.clone();
    }

    double median() {
        return AppRunner.median(runMillis);
    }

    double min() {
        double m = Double.POSITIVE_INFINITY;
        for (final double t : runMillis) {
            m = Math.min(m, t);
        }
        return m;
    }

    double max() {
        double m = 0;
        for (final double t : runMillis) {
            m = Math.max(m, t);
        }
        return m;
    }

    /** @return edges traversed per microsecond of the median run; NaN for PageRank, which traverses none */
    double mteps() {
        return edgesTraversed > 0 ? edgesTraversed / (median() * 1e3) : Double.NaN;
    }

    /** @return how many times faster than the Java CSR run */
    double vsJava() {
        return javaMillis / median();
    }

    /** @return {@code passed} or {@code FAILED} */
    String verified() {
        return verification.passed() ? "passed" : "FAILED";
    }
}
