package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.ref.Verification;

/**
 * One device count's measurement in a scaling sweep: every timed run, the last run's work counts, the edges it
 * traversed and its verification, and whether its busy threads outnumbered the cores. Immutable; thread-safe.
 */
final class ScalingPoint {
    final int devices;
    private final double[] runMillis;
    final WorkCounts counts;
    final long edgesTraversed;
    final Verification verification;
    final boolean oversubscribed;

    ScalingPoint(final int devices, final double[] runMillis, final WorkCounts counts, final long edgesTraversed,
        final Verification verification, final boolean oversubscribed) {
        if (runMillis.length == 0) {
            throw new IllegalArgumentException("no runs");
        }
        this.devices = devices;
        this.runMillis = runMillis.clone();
        this.counts = counts;
        this.edgesTraversed = edgesTraversed;
        this.verification = verification;
        this.oversubscribed = oversubscribed;
    }

    /** @return every timed run's milliseconds, in run order (a copy) */
    double[] runMillis() {
        return runMillis.clone();
    }

    /** @return the median run (the upper median for an even count) */
    double median() {
        return AppRunner.median(runMillis);
    }

    /** @return the fastest run */
    double best() {
        double b = Double.POSITIVE_INFINITY;
        for (final double t : runMillis) {
            b = Math.min(b, t);
        }
        return b;
    }

    /** @return the slowest run */
    double worst() {
        double w = 0;
        for (final double t : runMillis) {
            w = Math.max(w, t);
        }
        return w;
    }

    /** @return edges traversed per microsecond of the median run, NaN for an app that traverses none (PageRank) */
    double mteps() {
        return edgesTraversed > 0 && median() > 0 ? edgesTraversed / (median() * 1e3) : Double.NaN;
    }

    /** @return {@code skipped}, {@code passed} or {@code FAILED} */
    String verified() {
        return verification.isSkipped() ? "skipped" : verification.passed() ? "passed" : "FAILED";
    }
}
