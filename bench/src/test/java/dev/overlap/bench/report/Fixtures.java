package dev.overlap.bench.report;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helpers: recorded JMH JSON fixtures and hand-made results. */
final class Fixtures {
    static final String FIXTURES = "dev.overlap.bench.report.fixtures.";

    private Fixtures() {
    }

    /** @return the path of {@code src/test/resources/jmh/<name>} */
    static Path json(final String name) {
        final URL url = Fixtures.class.getResource("/jmh/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no fixture " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return a result with the given essentials and JMH's usual rest */
    static JmhResult result(final String benchmark, final String mode, final String unit, final double score,
                            final double error, final String... params) {
        final Map<String, String> p = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) {
            p.put(params[i], params[i + 1]);
        }
        return new JmhResult(benchmark, mode, 1, 1, "/usr/bin/java", List.of("-Xmx1g"), "17.0.15", "OpenJDK 64-Bit "
            + "Server VM", "17.0.15+6", "1.37", 1, "1 s", 3, "1 s", p, new JmhResult.Metric(score, error, unit, 3),
            Map.of());
    }

    static Analysis.ClassTable table(final List<Analysis.ClassTable> tables, final String simpleName) {
        return tables.stream().filter(t -> t.meta.simpleName.equals(simpleName)).findFirst().orElseThrow();
    }

    static Analysis.Row row(final Analysis.ClassTable t, final String method, final String... params) {
        outer:
        for (final Analysis.Row r : t.rows) {
            if (!r.result.method().equals(method)) {
                continue;
            }
            for (int i = 0; i < params.length; i += 2) {
                if (!params[i + 1].equals(r.result.params().get(params[i]))) {
                    continue outer;
                }
            }
            return r;
        }
        throw new AssertionError("no row " + method + " " + List.of(params));
    }

    static BenchmarkMeta.Comparison comparison(final Analysis.ClassTable t, final String name) {
        return t.meta.comparisons.stream().filter(c -> c.name.equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("no comparison " + name));
    }
}
