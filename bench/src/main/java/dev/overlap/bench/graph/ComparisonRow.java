package dev.overlap.bench.graph;

import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.ref.Verification;

/**
 * One implementation's measurement of one app on one graph: every timed run, the edges the answer traversed, its
 * verification, and the single-threaded Java CSR median of the same app and graph it is compared with (known once the
 * graph is done: a forked measurement reports its row without it). Optional figures: the peak RSS of the process that
 * measured it (forked Overlap measurements and GAP; not the rows measured inside the parent JVM), the L1 error of a
 * PageRank answer against the converged reference, and the settings the implementation ran with. Immutable;
 * thread-safe.
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
    /** Peak RSS in KiB of the process that measured the row, {@link PeakRss#UNKNOWN} when not measured. */
    final long peakRssKib;
    /** L1 error of a PageRank answer against the converged reference; NaN for other apps or when not measured. */
    final double prError;
    /** The settings it ran with (iterations, tolerance, delta), or empty. */
    final String settings;

    ComparisonRow(final String graph, final GraphApp app, final String impl, final String threads,
        final double[] runMillis, final long edgesTraversed, final Verification verification) {
        this(graph, app, impl, threads, runMillis, edgesTraversed, verification, Double.NaN, PeakRss.UNKNOWN,
            Double.NaN, "");
    }

    private ComparisonRow(final String graph, final GraphApp app, final String impl, final String threads,
        final double[] runMillis, final long edgesTraversed, final Verification verification, final double javaMillis,
        final long peakRssKib, final double prError, final String settings) {
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
        this.peakRssKib = peakRssKib;
        this.prError = prError;
        this.settings = settings;
    }

    /** @return this row compared with a Java CSR median of {@code millis} */
    ComparisonRow withJavaMillis(final double millis) {
        return new ComparisonRow(graph, app, impl, threads, runMillis, edgesTraversed, verification, millis,
            peakRssKib, prError, settings);
    }

    /** @return this row with the peak RSS of the process that measured it */
    ComparisonRow withPeakRss(final long kib) {
        return new ComparisonRow(graph, app, impl, threads, runMillis, edgesTraversed, verification, javaMillis, kib,
            prError, settings);
    }

    /** @return this row with the L1 error of its PageRank answer */
    ComparisonRow withPrError(final double error) {
        return new ComparisonRow(graph, app, impl, threads, runMillis, edgesTraversed, verification, javaMillis,
            peakRssKib, error, settings);
    }

    /** @return this row with another verification outcome */
    ComparisonRow withVerification(final Verification v) {
        return new ComparisonRow(graph, app, impl, threads, runMillis, edgesTraversed, v, javaMillis, peakRssKib,
            prError, settings);
    }

    /** @return this row with the settings it ran with */
    ComparisonRow withSettings(final String text) {
        return new ComparisonRow(graph, app, impl, threads, runMillis, edgesTraversed, verification, javaMillis,
            peakRssKib, prError, text);
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
