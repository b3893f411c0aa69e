package dev.overlap.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The machine and the run: captured when a report run starts (so load average and commit are those of the
 * measurement, not of report generation) and stored beside the results as {@code run.json}. Also used by the graph
 * comparison ({@code dev.overlap.bench.graph}) for its report header.
 *
 * <p>Not thread-safe: capture or read it in one thread, then share it read-only.
 */
public final class RunInfo {
    /** File name beside the results. */
    static final String FILE = "run.json";

    final Map<String, Object> values = new LinkedHashMap<>();

    private RunInfo() {
    }

    /**
     * Captures this machine now.
     *
     * @param repo the repository directory for the git commit, or null
     * @param when a note such as "at run start"
     * @return the captured info
     */
    public static RunInfo capture(final Path repo, final String when) {
        final RunInfo i = new RunInfo();
        i.values.put("captured", when);
        i.values.put("date", ZonedDateTime.now().truncatedTo(ChronoUnit.SECONDS)
            .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        i.values.put("cores", Runtime.getRuntime().availableProcessors());
        i.values.put("memoryBytes", totalMemory());
        i.values.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        i.values.put("arch", System.getProperty("os.arch"));
        i.values.put("cpu", cpuModel());
        i.values.put("javaVendor", System.getProperty("java.vendor"));
        i.values.put("javaVersion", System.getProperty("java.runtime.version", System.getProperty("java.version")));
        i.values.put("javaHome", System.getProperty("java.home"));
        i.values.put("loadAverage", loadAverage());
        if (repo != null) {
            final String commit = git(repo, "rev-parse", "HEAD");
            if (commit != null) {
                i.values.put("commit", commit);
                final String status = git(repo, "status", "--porcelain", "--untracked-files=no");
                i.values.put("dirty", status != null && !status.isBlank());
                final String branch = git(repo, "rev-parse", "--abbrev-ref", "HEAD");
                if (branch != null) {
                    i.values.put("branch", branch);
                }
            }
        }
        return i;
    }

    /**
     * @param file a {@code run.json}
     * @return its contents
     * @throws ReportException if it is not a JSON object
     */
    static RunInfo read(final Path file) throws ReportException {
        final RunInfo i = new RunInfo();
        try {
            final Object v = JmhJson.JSON_RW.anyFrom(Files.readString(file));
            if (!(v instanceof Map<?, ?> m)) {
                throw new ReportException(file + ": expected a JSON object with the run's machine information");
            }
            m.forEach((k, val) -> i.values.put(String.valueOf(k), val));
        } catch (final IOException e) {
            throw new ReportException(file + ": cannot read the run information: " + e.getMessage(), e);
        }
        return i;
    }

    /** @return the captured values in capture order (read-only view) */
    public Map<String, Object> asMap() {
        return java.util.Collections.unmodifiableMap(values);
    }

    void write(final Path file) throws IOException {
        Files.writeString(file, JmhJson.JSON_RW.asString(values) + "\n");
    }

    String string(final String key) {
        final Object v = values.get(key);
        return v == null ? null : String.valueOf(v);
    }

    int cores() {
        return values.get("cores") instanceof Number n ? n.intValue() : Runtime.getRuntime().availableProcessors();
    }

    double number(final String key) {
        return values.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    boolean flag(final String key) {
        return Boolean.TRUE.equals(values.get(key));
    }

    private static long totalMemory() {
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                return os.getTotalMemorySize();
            }
        } catch (final LinkageError | RuntimeException e) {
            // fall through
        }
        return -1;
    }

    private static String loadAverage() {
        try {
            final String s = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim();
            final String[] p = s.split("\\s+");
            if (p.length >= 3) {
                return p[0] + " " + p[1] + " " + p[2];
            }
        } catch (final IOException | RuntimeException e) {
            // not Linux
        }
        final double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return l < 0 ? null : String.format(java.util.Locale.ROOT, "%.2f", l);
    }

    private static String cpuModel() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (final IOException | RuntimeException e) {
            // not Linux
        }
        return null;
    }

    private static String git(final Path repo, final String... args) {
        final List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.add("-C");
        cmd.add(repo.toString());
        cmd.addAll(List.of(args));
        try {
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(false)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? out : null;
        } catch (final IOException e) {
            return null;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
