package dev.overlap.bench.graph;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Peak resident set size (the kernel's high-water mark of a process's resident memory, {@code VmHWM} in
 * {@code /proc/PID/status}, the same figure {@code /usr/bin/time -f %M} reports from {@code wait4}'s rusage), in KiB.
 * Linux only: elsewhere every reading is {@link #UNKNOWN}. Stateless; thread-safe.
 */
final class PeakRss {
    /** No reading: not Linux, or the process has already gone. */
    static final long UNKNOWN = -1;

    private PeakRss() {
    }

    /** @return this JVM's peak RSS so far, in KiB, or {@link #UNKNOWN} */
    static long selfKib() {
        return ofStatus(Path.of("/proc/self/status"));
    }

    /**
     * @return the peak RSS so far of the process whose {@code status} file this is, in KiB, or {@link #UNKNOWN} (no
     *         file, or no {@code VmHWM} line: a process that has exited has released its memory and no longer has
     *         one)
     */
    static long ofStatus(final Path status) {
        try {
            return parseStatus(new String(Files.readAllBytes(status), StandardCharsets.US_ASCII));
        } catch (final IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** @return the {@code VmHWM:} figure of a {@code /proc/PID/status} text, in KiB, or {@link #UNKNOWN} */
    static long parseStatus(final String status) {
        for (final String line : status.split("\n")) {
            if (line.startsWith("VmHWM:")) {
                final String v = line.substring("VmHWM:".length()).trim();
                final String digits = v.endsWith("kB") ? v.substring(0, v.length() - 2).trim() : v;
                try {
                    return Long.parseLong(digits);
                } catch (final NumberFormatException e) {
                    return UNKNOWN;
                }
            }
        }
        return UNKNOWN;
    }

    /**
     * @param text what {@code /usr/bin/time -f %M -o FILE} wrote: the maximum RSS in KiB on the last line (a line such
     *             as {@code Command exited with non-zero status 1} may come first)
     * @return the figure, or {@link #UNKNOWN}
     */
    static long parseTimeOutput(final String text) {
        final String[] lines = text.strip().split("\n");
        try {
            return Long.parseLong(lines[lines.length - 1].trim());
        } catch (final NumberFormatException e) {
            return UNKNOWN;
        }
    }
}
