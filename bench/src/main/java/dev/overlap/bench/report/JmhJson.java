package dev.overlap.bench.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads and merges JMH JSON result files ({@code -rf json}), checking their shape with errors that name the file. */
public final class JmhJson {
    private static final Set<String> MODES = Set.of("thrpt", "avgt", "sample", "ss");
    static final JSON JSON_RW = JSON.builder(JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build())
        .build().with(JSON.Feature.PRESERVE_FIELD_ORDERING, JSON.Feature.PRETTY_PRINT_OUTPUT);

    private JmhJson() {
    }

    /**
     * Reads one JMH JSON file.
     *
     * @param file the file
     * @return its results, in file order (at least one)
     * @throws ReportException naming the file and the problem: unreadable, not JSON, truncated, wrong shape, empty
     */
    public static List<JmhResult> read(final Path file) throws ReportException {
        final List<Object> raw = readRaw(file);
        final List<JmhResult> results = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            results.add(parse(file, i, raw.get(i)));
        }
        return results;
    }

    /**
     * Reads one JMH JSON file as plain maps and lists (for merging without loss).
     *
     * @param file the file
     * @return the top-level array, non-empty
     * @throws ReportException naming the file and the problem
     */
    public static List<Object> readRaw(final Path file) throws ReportException {
        final Object top;
        try {
            if (Files.size(file) == 0) {
                throw new ReportException(file + ": empty file: expected the JSON array JMH writes with -rf json");
            }
        } catch (final NoSuchFileException e) {
            throw new ReportException(file + ": no such file");
        } catch (final IOException e) {
            throw new ReportException(file + ": cannot read: " + e, e);
        }
        try (InputStream in = Files.newInputStream(file); JsonParser parser = JSON_RW.createParser(in)) {
            top = JSON_RW.anyFrom(parser);
            if (top != null && parser.nextToken() != null) {
                throw new ReportException(file + ": not a JMH JSON result file: unexpected content after the "
                    + "results array at " + where(parser.currentLocation()));
            }
        } catch (final NoSuchFileException e) {
            throw new ReportException(file + ": no such file");
        } catch (final JsonProcessingException e) {
            final String what = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
            final boolean truncated = what.contains("end-of-input");
            throw new ReportException(file + ": " + (truncated ? "truncated JSON (the JMH run may not have finished)"
                : "malformed JSON") + " at " + where(e.getLocation()) + ": " + firstLine(what), e);
        } catch (final IOException e) {
            throw new ReportException(file + ": cannot read: " + e, e);
        }
        if (top == null) {
            throw new ReportException(file + ": empty file: expected the JSON array JMH writes with -rf json");
        }
        if (!(top instanceof List<?> list)) {
            throw new ReportException(file + ": not a JMH JSON result file: expected a JSON array of results, found "
                + kind(top));
        }
        if (list.isEmpty()) {
            throw new ReportException(file + ": contains no benchmark results (empty array): did every benchmark "
                + "fail or did the include pattern match nothing?");
        }
        @SuppressWarnings("unchecked") final List<Object> objects = (List<Object>)list;
        return objects;
    }

    /**
     * Writes results (plain maps, as read by {@link #readRaw}) as one JMH JSON array.
     *
     * @param entries the entries
     * @param file the target file
     * @throws IOException if writing fails
     */
    public static void writeRaw(final List<Object> entries, final Path file) throws IOException {
        Files.writeString(file, JSON_RW.asString(entries) + "\n");
    }

    private static JmhResult parse(final Path file, final int index, final Object entry) throws ReportException {
        final String at = file + ": result #" + (index + 1);
        if (!(entry instanceof Map<?, ?> map)) {
            throw new ReportException(at + ": expected a JSON object, found " + kind(entry));
        }
        final String benchmark = string(map, "benchmark", at, true);
        final String where = at + " (" + benchmark + ")";
        if (benchmark.indexOf('.') <= 0 || benchmark.endsWith(".")) {
            throw new ReportException(where + ": 'benchmark' is not a qualified Class.method name");
        }
        final String mode = string(map, "mode", where, true);
        if (!MODES.contains(mode)) {
            throw new ReportException(where + ": unknown JMH mode '" + mode + "' (expected one of " + MODES + ")");
        }
        final Object primaryRaw = map.get("primaryMetric");
        if (primaryRaw == null) {
            throw new ReportException(where + ": 'primaryMetric' is missing");
        }
        final JmhResult.Metric primary = metric(primaryRaw, where + ": primaryMetric");
        final Map<String, JmhResult.Metric> secondary = new LinkedHashMap<>();
        final Object secondaryRaw = map.get("secondaryMetrics");
        if (secondaryRaw instanceof Map<?, ?> sec) {
            for (final Map.Entry<?, ?> e : sec.entrySet()) {
                secondary.put(String.valueOf(e.getKey()),
                    metric(e.getValue(), where + ": secondaryMetrics." + e.getKey()));
            }
        } else if (secondaryRaw != null) {
            throw new ReportException(where + ": 'secondaryMetrics' is not an object");
        }
        final Map<String, String> params = new LinkedHashMap<>();
        final Object paramsRaw = map.get("params");
        if (paramsRaw instanceof Map<?, ?> p) {
            for (final Map.Entry<?, ?> e : p.entrySet()) {
                params.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
            }
        } else if (paramsRaw != null) {
            throw new ReportException(where + ": 'params' is not an object");
        }
        final List<String> jvmArgs = new ArrayList<>();
        if (map.get("jvmArgs") instanceof List<?> args) {
            for (final Object a : args) {
                jvmArgs.add(String.valueOf(a));
            }
        }
        return new JmhResult(benchmark, mode, integer(map, "threads", where, 1), integer(map, "forks", where, 0),
            string(map, "jvm", where, false), Collections.unmodifiableList(jvmArgs),
            string(map, "jdkVersion", where, false), string(map, "vmName", where, false),
            string(map, "vmVersion", where, false), string(map, "jmhVersion", where, false),
            integer(map, "warmupIterations", where, 0), string(map, "warmupTime", where, false),
            integer(map, "measurementIterations", where, 0), string(map, "measurementTime", where, false),
            Collections.unmodifiableMap(params), primary, Collections.unmodifiableMap(secondary));
    }

    private static JmhResult.Metric metric(final Object raw, final String where) throws ReportException {
        if (!(raw instanceof Map<?, ?> m)) {
            throw new ReportException(where + ": expected an object, found " + kind(raw));
        }
        final double score = number(m.get("score"), where + ".score", true);
        final double error = m.containsKey("scoreError") ? number(m.get("scoreError"), where + ".scoreError", false)
            : Double.NaN;
        final Object unit = m.get("scoreUnit");
        if (!(unit instanceof String u) || u.isEmpty()) {
            throw new ReportException(where + ".scoreUnit is missing");
        }
        int samples = 0;
        if (m.get("rawData") instanceof List<?> forks) {
            for (final Object fork : forks) {
                if (fork instanceof List<?> it) {
                    samples += it.size();
                }
            }
        }
        return new JmhResult.Metric(score, error, u, samples);
    }

    private static double number(final Object v, final String where, final boolean required) throws ReportException {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            switch (s) {
                case "NaN":
                    if (!required) {
                        return Double.NaN;
                    }
                    break;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        if (v == null) {
            throw new ReportException(where + " is missing");
        }
        throw new ReportException(where + " is not a number: " + v);
    }

    private static String string(final Map<?, ?> map, final String key, final String where, final boolean required)
        throws ReportException {
        final Object v = map.get(key);
        if (v == null) {
            if (required) {
                throw new ReportException(where + ": '" + key + "' is missing");
            }
            return "";
        }
        if (!(v instanceof String s)) {
            throw new ReportException(where + ": '" + key + "' is not a string: " + v);
        }
        return s;
    }

    private static int integer(final Map<?, ?> map, final String key, final String where, final int dflt)
        throws ReportException {
        final Object v = map.get(key);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Number n)) {
            throw new ReportException(where + ": '" + key + "' is not a number: " + v);
        }
        return n.intValue();
    }

    private static String kind(final Object v) {
        if (v instanceof Map) {
            return "an object";
        }
        if (v instanceof List) {
            return "an array";
        }
        if (v instanceof String) {
            return "a string";
        }
        return v == null ? "null" : "a " + v.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    private static String where(final JsonLocation loc) {
        return loc == null ? "unknown position" : "line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String firstLine(final String s) {
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
