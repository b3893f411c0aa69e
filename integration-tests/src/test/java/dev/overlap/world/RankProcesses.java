package dev.overlap.world;

import dev.overlap.hosts.HostFile;
import dev.overlap.hosts.HostGroup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The processes of one test job: one child JVM per rank, started with the test's class path and the Agrona flag,
 * each child's output collected line by line on a reader thread (so the test can wait for a line instead of
 * sleeping). Every wait is bounded; {@link #close()} kills whatever still runs.
 */
final class RankProcesses implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    private final List<List<String>> lines = new ArrayList<>();

    /**
     * @param ranks    how many
     * @param mainArgs the main class and its arguments for a rank
     */
    RankProcesses(final int ranks, final IntFunction<List<String>> mainArgs) throws IOException {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int r = 0; r < ranks; r++) {
            final List<String> cmd = new ArrayList<>(List.of(java, "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path")));
            cmd.addAll(mainArgs.apply(r));
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            final List<String> out = new CopyOnWriteArrayList<>();
            final Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        out.add(line);
                    }
                } catch (final IOException e) {
                    out.add("(output lost: " + e + ")");
                }
            }, "rank-" + r + "-output");
            reader.setDaemon(true);
            reader.start();
            processes.add(p);
            lines.add(out);
        }
    }

    /**
     * Writes a host file of {@code ranks} "hosts", rank r on loopback address 127.0.0.(r+1) and a free UDP port.
     *
     * @return its path, {@code hosts.txt} in {@code dir}
     */
    static Path loopbackHostFile(final Path dir, final int ranks) throws IOException {
        final List<String> lines = new ArrayList<>(List.of("# rank host port: one loopback address per rank"));
        for (int r = 0; r < ranks; r++) {
            final String address = "127.0.0." + (r + 1);
            lines.add(r + " " + address + " " + dev.overlap.testing.UdpPorts.free(address));
        }
        return Files.write(dir.resolve("hosts.txt"), lines);
    }

    /**
     * Starts the ranks of a probe on loopback "hosts" (see {@link #loopbackHostFile}): each runs
     * {@code PROBE HOSTFILE RANK MODE PEER_TIMEOUT_MS}.
     */
    static RankProcesses onLoopbackHosts(final Path dir, final int ranks, final Class<?> probe, final String mode,
        final long peerTimeoutMillis) throws IOException {
        final Path hosts = loopbackHostFile(dir, ranks);
        return new RankProcesses(ranks, r -> List.of(probe.getName(), hosts.toString(), Integer.toString(r), mode,
            Long.toString(peerTimeoutMillis)));
    }

    /** The arguments {@link #onLoopbackHosts} gives a probe's rank: {@code HOSTFILE RANK MODE PEER_TIMEOUT_MS}. */
    static final class LoopbackRank {
        final HostFile hosts;
        final int rank;
        final String mode;
        final long peerTimeoutMillis;

        LoopbackRank(final String[] args) {
            hosts = HostFile.read(Path.of(args[0]));
            rank = Integer.parseInt(args[1]);
            mode = args[2];
            peerTimeoutMillis = Long.parseLong(args[3]);
        }

        /** @return this rank's host group, joined within 60 s, with the test's peer timeout */
        HostGroup join() {
            return HostGroup.builder(hosts, rank).joinTimeout(60, TimeUnit.SECONDS)
                .peerTimeout(peerTimeoutMillis, TimeUnit.MILLISECONDS).join();
        }
    }

    /** Checks that every rank exits with 0 within the bound, having printed {@code rank R ok}. */
    void assertEveryRankOk(final long timeout, final TimeUnit unit) throws Exception {
        for (int r = 0; r < processes.size(); r++) {
            final int exit = awaitExit(r, timeout, unit);
            if (exit != 0) {
                throw new AssertionError("rank " + r + " exited with " + exit + ": " + output(r));
            }
            if (!output(r).contains("rank " + r + " ok")) {
                throw new AssertionError("rank " + r + " did not print 'rank " + r + " ok': " + output(r));
            }
        }
    }

    /**
     * Checks that rank {@code rank} exited with 3, named rank {@code failed} ({@code rank R: rank F failed: ...}) and
     * waited less than {@code boundMillis} for it ({@code rank R waited <ms> ms}).
     */
    void assertNamedWithinBound(final int rank, final int failed, final long boundMillis, final long timeout,
        final TimeUnit unit) throws Exception {
        final int exit = awaitExit(rank, timeout, unit);
        if (exit != 3) {
            throw new AssertionError("rank " + rank + " exited with " + exit + ", not 3: " + output(rank));
        }
        if (output(rank).stream().noneMatch(l -> l.startsWith("rank " + rank + ": rank " + failed + " failed: "))) {
            throw new AssertionError("rank " + rank + " does not name rank " + failed + ": " + output(rank));
        }
        final long waited = output(rank).stream().filter(l -> l.startsWith("rank " + rank + " waited "))
            .mapToLong(l -> Long.parseLong(l.split(" ")[3])).findFirst().orElseThrow();
        if (waited >= boundMillis) {
            throw new AssertionError("rank " + rank + " waited " + waited + " ms: " + output(rank));
        }
        System.out.println("rank " + rank + " waited " + waited + " ms: " + output(rank).stream()
            .filter(l -> l.startsWith("rank " + rank + ": ")).findFirst().orElseThrow());
    }

    Process process(final int rank) {
        return processes.get(rank);
    }

    /** @return what rank {@code rank} printed so far */
    List<String> output(final int rank) {
        return lines.get(rank);
    }

    /** Waits until rank {@code rank} prints {@code line} (or exits first: then fails with its output). */
    void awaitLine(final int rank, final String line, final long timeout, final TimeUnit unit) throws Exception {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!lines.get(rank).contains(line)) {
            if (!processes.get(rank).isAlive() && !lines.get(rank).contains(line)) {
                processes.get(rank).waitFor(1, TimeUnit.SECONDS); // let the reader take the last lines
                if (!lines.get(rank).contains(line)) {
                    throw new AssertionError("rank " + rank + " exited (" + processes.get(rank).exitValue()
                        + ") without printing '" + line + "': " + lines.get(rank));
                }
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("rank " + rank + " did not print '" + line + "' within " + timeout + " "
                    + unit + ": " + lines.get(rank));
            }
            processes.get(rank).waitFor(10, TimeUnit.MILLISECONDS); // a bounded wait on the process, not a sleep
        }
    }

    /** @return rank {@code rank}'s exit code, waiting at most {@code timeout} (then fails with its output) */
    int awaitExit(final int rank, final long timeout, final TimeUnit unit) throws Exception {
        final Process p = processes.get(rank);
        if (!p.waitFor(timeout, unit)) {
            throw new AssertionError("rank " + rank + " still runs after " + timeout + " " + unit + ": "
                + lines.get(rank));
        }
        return p.exitValue();
    }

    @Override
    public void close() {
        for (final Process p : processes) {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
        for (final Process p : processes) {
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
