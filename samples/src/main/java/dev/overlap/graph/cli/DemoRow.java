package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.ref.Verification;

/**
 * One line of the demo's comparison: an app on a graph in one mode (or the single-threaded Java reference), its timed
 * runs, work counts and verification, and the reference's median it is compared with. Immutable; thread-safe.
 */
final class DemoRow {
    final String app;
    final String graph;
    final String mode;
    /** Threads, as shown: {@code 1}, {@code 4}, or {@code 4+1t} with a transfer thread. */
    final String threads;
    /** Whether it ran on the mesh (the reference rows did not: they have no pushes or messages to show). */
    final boolean onMesh;
    private final double[] runMillis;
    final double medianMillis;
    final long edgesTraversed;
    final WorkCounts counts;
    final Verification verification;
    /** Whether this is the single-threaded Java reference itself. */
    final boolean reference;
    /** The reference's median on the same graph and app; NaN if none. */
    final double sequentialMillis;
    /** Jacobi: the transfer configuration; null for the graph apps. */
    final String transfer;
    /** Jacobi with the profiler's choice: how long profiling took; NaN otherwise. */
    final double profileMillis;
    /** Whether {@link #mode} is the one {@code --mode auto}, the apps' default, picks for this graph and mesh. */
    final boolean autoPick;

    DemoRow(final String app, final String graph, final String mode, final String threads, final boolean onMesh,
        final double[] runMillis, final long edgesTraversed, final WorkCounts counts, final Verification verification,
        final boolean reference, final double sequentialMillis, final String transfer, final double profileMillis) {
        this(app, graph, mode, threads, onMesh, runMillis, edgesTraversed, counts, verification, reference,
            sequentialMillis, transfer, profileMillis, false);
    }

    private DemoRow(final String app, final String graph, final String mode, final String threads,
        final boolean onMesh, final double[] runMillis, final long edgesTraversed, final WorkCounts counts,
        final Verification verification, final boolean reference, final double sequentialMillis,
        final String transfer, final double profileMillis, final boolean autoPick) {
        this.autoPick = autoPick;
        this.app = app;
        this.graph = graph;
        this.mode = mode;
        this.threads = threads;
        this.onMesh = onMesh;
        this.runMillis = runMillis.clone();
        this.medianMillis = AppRunner.median(runMillis);
        this.edgesTraversed = edgesTraversed;
        this.counts = counts;
        this.verification = verification;
        this.reference = reference;
        this.sequentialMillis = reference ? medianMillis : sequentialMillis;
        this.transfer = transfer;
        this.profileMillis = profileMillis;
    }

    /** @return the single-threaded Java reference's row: compared with itself, verified by definition */
    static DemoRow reference(final String app, final String graph, final double[] runMillis, final long edgesTraversed,
        final WorkCounts counts, final Verification verification) {
        return new DemoRow(app, graph, "java seq", "1", false, runMillis, edgesTraversed, counts, verification, true,
            Double.NaN, null, Double.NaN);
    }

    /** @return this row marked as the mode {@code --mode auto} picks */
    DemoRow asAutoPick() {
        return new DemoRow(app, graph, mode, threads, onMesh, runMillis, edgesTraversed, counts, verification,
            reference, sequentialMillis, transfer, profileMillis, true);
    }

    /** @return every timed run's milliseconds, in run order (a copy) */
    double[] runMillis() {
        return runMillis.clone();
    }

    /** @return edges traversed per microsecond of the median run; NaN without traversed edges */
    double mteps() {
        return edgesTraversed > 0 && medianMillis > 0 ? edgesTraversed / (medianMillis * 1e3) : Double.NaN;
    }

    /** @return the reference's median over this one: how many times faster than the single-threaded Java run */
    double vsSequential() {
        return medianMillis > 0 ? sequentialMillis / medianMillis : Double.NaN;
    }

    /** @return {@code reference}, {@code passed} or {@code FAILED} */
    String verified() {
        return reference ? "reference" : verification.passed() ? "passed" : "FAILED";
    }
}
