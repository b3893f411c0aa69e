package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.ref.Verification;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a forked measurement tells its parent on standard output, and how the parent reads it back: one line per
 * message, {@value #PREFIX} followed by a JSON object (jackson-jr) with one key, {@code "note"} (a text),
 * {@code "error"} (the child failed; the parent reports it as its own failure) or {@code "row"} (an object:
 * {@code impl}, {@code threads}, {@code runMillis} (every run, full precision), {@code edgesTraversed},
 * {@code verification} ({@code passed} or {@code FAILED}), {@code detail}, {@code peakRssKib} (-1 when unknown),
 * {@code prError} (left out when none) and {@code settings}). Other lines (a JVM warning) are ignored; text fields keep
 * their tabs and line breaks. Both sides live here so that they cannot drift apart. Stateless; thread-safe.
 */
final class ForkProtocol {
    /** Starts every protocol line. */
    static final String PREFIX = "OVERLAP-FORK ";

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
            out.println(line("note", n));
        }
        for (final ComparisonRow row : rows) {
            final List<Double> times = new ArrayList<>();
            for (final double t : row.runMillis()) {
                times.add(t);
            }
            final Map<String, Object> r = new LinkedHashMap<>();
            r.put("impl", row.impl);
            r.put("threads", row.threads);
            r.put("runMillis", times);
            r.put("edgesTraversed", row.edgesTraversed);
            r.put("verification", row.verified());
            r.put("detail", row.verification.detail());
            r.put("peakRssKib", row.peakRssKib);
            r.put("prError", Double.isNaN(row.prError) ? null : row.prError);
            r.put("settings", row.settings);
            out.println(line("row", r));
            failed += row.verification.passed() ? 0 : 1;
        }
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    /** Child side: the line that reports a failure. */
    static String errorLine(final String description) {
        return line("error", description);
    }

    private static String line(final String key, final Object value) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, value);
        try {
            return PREFIX + JSON.std.asString(m);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parent side: reads a child's lines (lines without the prefix are ignored; a protocol line that cannot be read
     * is reported as the child's error).
     *
     * @param graph the graph the child measured
     * @param app   the app it measured
     */
    static Reply read(final List<String> lines, final String graph, final GraphApp app) {
        ComparisonRow row = null;
        String error = null;
        final List<String> notes = new ArrayList<>();
        for (final String line : lines) {
            if (!line.startsWith(PREFIX)) {
                continue;
            }
            try {
                final Map<String, Object> m = JSON.std.mapFrom(line.substring(PREFIX.length()));
                if (m.get("error") instanceof String e) {
                    error = e;
                } else if (m.get("note") instanceof String n) {
                    notes.add(n);
                } else if (m.get("row") instanceof Map<?, ?> r) {
                    row = row(r, graph, app);
                } else {
                    error = "unknown reply " + line;
                }
            } catch (final IOException | RuntimeException e) {
                error = "unreadable reply (" + e.getMessage() + "): " + line;
            }
        }
        return new Reply(row, notes, error);
    }

    private static ComparisonRow row(final Map<?, ?> r, final String graph, final GraphApp app) {
        final List<?> runs = (List<?>)r.get("runMillis");
        final double[] times = new double[runs.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = ((Number)runs.get(i)).doubleValue();
        }
        final String detail = (String)r.get("detail");
        final Object prError = r.get("prError");
        return new ComparisonRow(graph, app, (String)r.get("impl"), (String)r.get("threads"), times,
            ((Number)r.get("edgesTraversed")).longValue(),
            "passed".equals(r.get("verification")) ? Verification.pass(detail) : Verification.fail(detail))
            .withPeakRss(((Number)r.get("peakRssKib")).longValue())
            .withPrError(prError == null ? Double.NaN : ((Number)prError).doubleValue())
            .withSettings((String)r.get("settings"));
    }
}
