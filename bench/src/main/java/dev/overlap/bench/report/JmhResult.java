package dev.overlap.bench.report;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One entry of a JMH JSON result file: one benchmark (method or group) in one mode with one param combination.
 *
 * @param benchmark the full name {@code package.Class.method}
 * @param mode the JMH mode: {@code thrpt}, {@code avgt}, {@code sample} or {@code ss}
 * @param threads JMH threads
 * @param forks forks
 * @param jvm the forked JVM's executable
 * @param jvmArgs the forks' JVM arguments
 * @param jdkVersion e.g. {@code 17.0.15}
 * @param vmName e.g. {@code OpenJDK 64-Bit Server VM}
 * @param vmVersion e.g. {@code 17.0.15+6-Debian-1deb12u1}
 * @param jmhVersion e.g. {@code 1.37}
 * @param warmupIterations warmup iterations
 * @param warmupTime warmup iteration time as JMH prints it
 * @param measurementIterations measurement iterations
 * @param measurementTime measurement iteration time as JMH prints it
 * @param params the params, in JMH's order
 * @param primary the primary metric
 * @param secondary the secondary metrics by name ({@code @AuxCounters}, profilers)
 */
public record JmhResult(String benchmark, String mode, int threads, int forks, String jvm, List<String> jvmArgs,
                        String jdkVersion, String vmName, String vmVersion, String jmhVersion, int warmupIterations,
                        String warmupTime, int measurementIterations, String measurementTime,
                        Map<String, String> params, Metric primary, Map<String, Metric> secondary) {

    /**
     * A score with its error.
     *
     * @param score the score
     * @param error the half-width of the 99.9% confidence interval, NaN when JMH had too few samples
     * @param unit the unit, e.g. {@code ops/us} or {@code ms/op}
     * @param samples measured samples (iterations over all forks), 0 when unknown
     */
    public record Metric(double score, double error, String unit, int samples) {
        /** @return the error, or 0 when JMH reported none (NaN) */
        public double errorOrZero() {
            return Double.isFinite(error) ? error : 0;
        }
    }

    /** @return the class name: {@code benchmark} up to its last dot */
    public String className() {
        return benchmark.substring(0, benchmark.lastIndexOf('.'));
    }

    /** @return the method or group name: {@code benchmark} after its last dot */
    public String method() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** @return whether a higher score is better: throughput modes; time modes are better lower */
    public boolean higherIsBetter() {
        return higherIsBetter(mode, primary.unit());
    }

    /**
     * @param mode JMH mode
     * @param unit score unit
     * @return whether a higher score is better
     */
    public static boolean higherIsBetter(final String mode, final String unit) {
        if ("thrpt".equals(mode)) {
            return true;
        }
        if ("avgt".equals(mode) || "sample".equals(mode) || "ss".equals(mode)) {
            return false;
        }
        return !unit.endsWith("/op");
    }

    /** @return a key identifying this row across runs: benchmark, mode and params (sorted) */
    public String key() {
        return benchmark + " [" + mode + "] " + new TreeMap<>(params);
    }
}
