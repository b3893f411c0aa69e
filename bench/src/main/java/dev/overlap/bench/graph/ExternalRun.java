package dev.overlap.bench.graph;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs an external program to the end and measures its peak RSS: through {@code /usr/bin/time -f %M -o FILE} (GNU
 * time, which reads the figure from {@code wait4}'s rusage: exact) when that is installed, otherwise by reading the
 * child's {@code /proc/PID/status} {@code VmHWM} (the kernel's high-water mark, so a read never misses an earlier
 * peak) every {@value #POLL_MILLIS} ms while the process runs and keeping the last reading: a peak reached in the
 * final interval before exit can be missed, so the fallback is a lower bound, and {@link Result#exactRss} says which
 * it was. Standard error is merged into the output. Immutable; thread-safe (each call starts its own process).
 */
final class ExternalRun {
    /** GNU time, where the exact figure comes from. */
    static final Path GNU_TIME = Path.of("/usr/bin/time");
    static final long POLL_MILLIS = 10;

    private final Path time;

    /** @param time GNU time to wrap the program in, or null to poll {@code /proc} instead */
    ExternalRun(final Path time) {
        this.time = time;
    }

    /** @return a runner that uses {@code /usr/bin/time} when it is executable here */
    static ExternalRun onThisMachine() {
        return new ExternalRun(Files.isExecutable(GNU_TIME) ? GNU_TIME : null);
    }

    /** What the program did. */
    static final class Result {
        final int exit;
        final List<String> lines;
        /** Peak RSS in KiB, {@link PeakRss#UNKNOWN} when no figure could be read. */
        final long peakRssKib;
        /** Whether {@link #peakRssKib} came from GNU time (exact) rather than polling (a lower bound). */
        final boolean exactRss;

        Result(final int exit, final List<String> lines, final long peakRssKib, final boolean exactRss) {
            this.exit = exit;
            this.lines = List.copyOf(lines);
            this.peakRssKib = peakRssKib;
            this.exactRss = exactRss;
        }
    }

    /**
     * @param command the program and its arguments
     * @param env     variables to set in its environment (on top of this process's)
     * @return its exit code, output lines and peak RSS
     * @throws IOException when it cannot be started
     * @throws IllegalStateException when this thread is interrupted while waiting (the program is killed)
     */
    Result run(final List<String> command, final Map<String, String> env) throws IOException {
        final List<String> cmd = new ArrayList<>();
        Path rssFile = null;
        if (time != null) {
            rssFile = Files.createTempFile("overlap-peak-rss", ".txt");
            cmd.addAll(List.of(time.toString(), "-f", "%M", "-o", rssFile.toString()));
        }
        cmd.addAll(command);
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        try {
            final Process p = pb.start();
            final List<String> lines = new ArrayList<>();
            final Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                } catch (final IOException e) {
                    synchronized (lines) {
                        lines.add("(reading the output failed: " + e + ")");
                    }
                }
            }, "external-run-output");
            reader.setDaemon(true);
            reader.start();
            long polled = PeakRss.UNKNOWN;
            final Path status = Path.of("/proc", Long.toString(p.pid()), "status");
            try {
                if (rssFile == null) {
                    while (!p.waitFor(POLL_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                        final long now = PeakRss.ofStatus(status);
                        polled = now != PeakRss.UNKNOWN ? now : polled;
                    }
                } else {
                    p.waitFor();
                }
                reader.join();
            } catch (final InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running " + command.get(0));
            }
            final long rss = rssFile != null ? PeakRss.parseTimeOutput(Files.readString(rssFile)) : polled;
            synchronized (lines) {
                return new Result(p.exitValue(), lines, rss, rssFile != null);
            }
        } finally {
            if (rssFile != null) {
                Files.deleteIfExists(rssFile);
            }
        }
    }
}
