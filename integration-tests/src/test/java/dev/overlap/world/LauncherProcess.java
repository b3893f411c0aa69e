package dev.overlap.world;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code overlap launch ...} in a JVM of its own (the test's class path, the Agrona flag, a small heap and the
 * client compiler, which the launcher hands on to its ranks), its standard output and error collected line by line
 * on reader threads, so the test waits for a line instead of sleeping. Rank 0 writes into the same output and error
 * (it inherits them); the other ranks' lines come prefixed {@code [rank r] } on standard error. Every wait is
 * bounded; {@link #close()} kills the launcher and every process it started, should a test fail half-way.
 */
final class LauncherProcess implements AutoCloseable {
    private static final Pattern PIDS = Pattern.compile("\\(ranks 0\\.\\.\\d+: pids ([0-9 ]+)\\)");

    private final Process process;
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final List<String> err = new CopyOnWriteArrayList<>();
    private final List<Thread> readers = new ArrayList<>();

    /** @param args the arguments of {@code overlap}, starting with {@code launch} */
    LauncherProcess(final List<String> args) throws IOException {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
            "dev.overlap.graph.cli.OverlapCommand"));
        cmd.addAll(args);
        final ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("OVERLAP_STACKTRACE");
        process = pb.start();
        readers.add(read(process.getInputStream(), out, "launcher-out"));
        readers.add(read(process.getErrorStream(), err, "launcher-err"));
    }

    private static Thread read(final InputStream in, final List<String> lines, final String name) {
        final Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (final IOException e) {
                lines.add("(output lost: " + e + ")");
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    Process process() {
        return process;
    }

    /** @return the launcher's (and rank 0's) standard output so far */
    List<String> out() {
        return out;
    }

    /** @return standard error so far: the launcher's notes, rank 0's errors, the other ranks' prefixed lines */
    List<String> err() {
        return err;
    }

    /** @return both, for failure messages */
    String transcript() {
        return "stdout: " + out + "\nstderr: " + err;
    }

    /**
     * Waits until standard error has a line that {@code wanted} accepts (or the launcher exits first: then fails).
     *
     * @return the line
     */
    String awaitErrLine(final Predicate<String> wanted, final long timeout, final TimeUnit unit) throws Exception {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            for (final String line : err) {
                if (wanted.test(line)) {
                    return line;
                }
            }
            if (!process.isAlive()) {
                joinReaders();
                for (final String line : err) {
                    if (wanted.test(line)) {
                        return line;
                    }
                }
                throw new AssertionError("the launcher exited (" + process.exitValue() + ") without the line: "
                    + transcript());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no such line within " + timeout + " " + unit + ": " + transcript());
            }
            process.waitFor(10, TimeUnit.MILLISECONDS); // a bounded wait on the process, not a sleep
        }
    }

    /** @return the ranks' pids, from the launcher's note on the processes it started (waiting for it) */
    long[] awaitPids(final long timeout, final TimeUnit unit) throws Exception {
        final Matcher m = PIDS.matcher(awaitErrLine(l -> PIDS.matcher(l).find(), timeout, unit));
        if (!m.find()) {
            throw new AssertionError("no pids in the launcher's note: " + transcript());
        }
        final String[] parts = m.group(1).trim().split(" ");
        final long[] pids = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            pids[i] = Long.parseLong(parts[i]);
        }
        return pids;
    }

    /** @return the launcher's exit code, waiting at most {@code timeout} (then fails with what it printed) */
    int awaitExit(final long timeout, final TimeUnit unit) throws Exception {
        if (!process.waitFor(timeout, unit)) {
            throw new AssertionError("the launcher still runs after " + timeout + " " + unit + ": " + transcript());
        }
        joinReaders();
        return process.exitValue();
    }

    private void joinReaders() throws InterruptedException {
        for (final Thread t : readers) {
            t.join(TimeUnit.SECONDS.toMillis(30)); // rank 0 may hold the pipes a moment longer than the launcher
        }
    }

    @Override
    public void close() {
        final List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        for (final ProcessHandle p : all) {
            p.destroyForcibly();
        }
        for (final ProcessHandle p : all) {
            try {
                p.onExit().get(30, TimeUnit.SECONDS);
            } catch (final Exception e) {
                // best effort: the test has already failed or passed
            }
        }
    }
}
