package dev.overlap.bench.graph;

import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.ref.Verification;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a forked measurement tells its parent, one tab-separated line each on standard output, and how the parent reads
 * it back: {@code ROW impl threads times edges verified detail peakRssKiB prError settings} (times space-separated,
 * full precision; the peak RSS -1 when unknown, the PageRank error {@code NaN} when none),
 * {@code NOTE text}, or {@code ERROR description} (the child failed; the parent reports it as its own failure). Tabs
 * and line breaks inside a field become spaces. Both sides live here so that they cannot drift apart. Stateless;
 * thread-safe.
 */
final class ForkProtocol {
    private ForkProtocol() {
    }

    /** What the parent read from one child. */
    static final class Reply {
        /** The child's row, or null when it skipped the measurement (its note says why). */
        final ComparisonRow row;
        final List<String> notes;
        /** The child's failure, or null. */
        final String error;

        Reply(final ComparisonRow row, final List<String> notes, final String error) {
            this.row = row;
            this.notes = List.copyOf(notes);
            this.error = error;
        }
    }

    /**
     * Child side: prints the notes, then the rows.
     *
     * @return 0, or 1 if a row failed its verification
     */
    static int print(final Collection<ComparisonRow> rows, final Collection<String> notes, final PrintWriter out) {
        int failed = 0;
        for (final String n : notes) {
            out.println("NOTE\t" + field(n));
        }
        for (final ComparisonRow row : rows) {
            final StringBuilder times = new StringBuilder();
            for (final double t : row.runMillis()) {
                times.append(times.length() == 0 ? "" : " ").append(t);
            }
            out.println(String.join("\t", "ROW", row.impl, row.threads, times, Long.toString(row.edgesTraversed),
                row.verified(), field(row.verification.detail()), Long.toString(row.peakRssKib),
                Double.toString(row.prError), field(row.settings)));
            failed += row.verification.passed() ? 0 : 1;
        }
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    /** Child side: the line that reports a failure. */
    static String errorLine(final String description) {
        return "ERROR\t" + description.replace('\t', ' ');
    }

    /**
     * Parent side: reads a child's lines (other lines are ignored).
     *
     * @param graph the graph the child measured
     * @param app   the app it measured
     */
    static Reply read(final List<String> lines, final String graph, final GraphApp app) {
        ComparisonRow row = null;
        String error = null;
        final List<String> notes = new ArrayList<>();
        for (final String line : lines) {
            final String[] f = line.split("\t", -1);
            if (f[0].equals("ERROR") && f.length == 2) {
                error = f[1];
            } else if (f[0].equals("NOTE") && f.length == 2) {
                notes.add(f[1]);
            } else if (f[0].equals("ROW") && f.length == 10) {
                final String[] ts = f[3].trim().split(" ");
                final double[] times = new double[ts.length];
                for (int i = 0; i < ts.length; i++) {
                    times[i] = Double.parseDouble(ts[i]);
                }
                row = new ComparisonRow(graph, app, f[1], f[2], times, Long.parseLong(f[4]),
                    "passed".equals(f[5]) ? Verification.pass(f[6]) : Verification.fail(f[6]))
                    .withPeakRss(Long.parseLong(f[7])).withPrError(Double.parseDouble(f[8])).withSettings(f[9]);
            }
        }
        return new Reply(row, notes, error);
    }

    private static String field(final String s) {
        return s.replace('\t', ' ').replace('\n', ' ');
    }
}
