package dev.overlap.world;

import dev.overlap.graph.cli.OverlapCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code overlap launch} end to end, in real processes on this host: BFS, PageRank, SSSP and Jacobi across 2 and 3
 * processes answer exactly as one process does on the same devices (the {@code --output} files compared byte for
 * byte) and pass the reference check, with one report; so do the async BFS and SSSP, and the async PageRank passes
 * the reference check; a rank killed mid-run is named by every survivor, which exits
 * by itself within the bound, and the launcher exits with the killed rank's code; no job directory is left behind;
 * a job whose processes all died leaves its directory, which the next launch removes with a note; a terminated
 * launcher takes its ranks with it. The time bounds are hang guards, far above what the runs need.
 */
@Tag("slow")
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LaunchAcrossProcessesTest {
    private static final long BOUND_SECONDS = 120;

    @TempDir
    Path tmp;

    /** Runs {@code overlap ARGS} in this JVM (one process), for the reference answer. */
    private static int runHere(final String... args) {
        final StringWriter sink = new StringWriter();
        final picocli.CommandLine cl = OverlapCommand.commandLine();
        cl.setOut(new PrintWriter(sink));
        cl.setErr(new PrintWriter(sink));
        final int code = cl.execute(args);
        assertEquals(0, code, "one process: " + sink);
        return code;
    }

    private List<String> launch(final int processes, final String... command) {
        return launchWith(processes, "2s", command);
    }

    private List<String> launchWith(final int processes, final String peerTimeout, final String... command) {
        final List<String> args = new ArrayList<>(List.of("launch", "--processes", Integer.toString(processes),
            "--dir", tmp.toString(), "--peer-timeout", peerTimeout));
        args.addAll(Arrays.asList(command));
        return args;
    }

    private void assertNoJobLeft() throws Exception {
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("overlap-")).toList(),
                "job directories left behind");
        }
    }

    @ParameterizedTest(name = "{0} {1} across {2} processes")
    @CsvSource({"bfs, kron:10, 2", "bfs, grid:24x24, 3", "pr, kron:10, 3", "pr, grid:24x24, 2", "sssp, kron:10, 3",
        "sssp, grid:24x24, 2", "jacobi, 30000, 2", "jacobi, 30000, 3"})
    void anAppAcrossProcessesAnswersAsOneProcessWithOneReport(final String app, final String input,
        final int processes) throws Exception {
        final List<String> command = new ArrayList<>(List.of(app));
        if (app.equals("jacobi")) {
            command.addAll(List.of("--size", input, "--transfer", "triggered"));
        } else {
            command.addAll(List.of("--generate", input, "--mode", "bsp", "--warmups", "0"));
        }
        command.addAll(List.of("--devices", "3"));
        final Path[] answers = acrossProcessesAndHere(app, processes, command);
        assertArrayEquals(Files.readAllBytes(answers[0]), Files.readAllBytes(answers[1]), app + " " + input
            + ": the answer of " + processes + " processes differs from one process's");
        deleteBoth(answers);
    }

    /**
     * {@code --mode auto}, the default, takes the multi-device mode across processes (solo and coop run in one) and
     * says so in one line, once (rank 0's).
     */
    @Test
    void theDefaultModeAcrossProcessesIsTheParallelOneAndSaysSoOnce() throws Exception {
        try (LauncherProcess job = new LauncherProcess(launch(2, "sssp", "--generate", "kron:8", "--warmups", "0"))) {
            assertEquals(0, job.awaitExit(BOUND_SECONDS, TimeUnit.SECONDS), job.transcript());
            assertTrue(job.out().contains("mode              async"), job.transcript());
            assertEquals(1, job.err().stream().filter(l -> l.endsWith("overlap sssp: mode auto -> async (across "
                + "processes: solo and coop run in one)")).count(), job.transcript());
        }
        assertNoJobLeft();
    }

    /**
     * The async apps on the distributed worklist across processes: BFS (the hybrid with its bottom-up steps on kron,
     * plain on a grid) and SSSP answer byte for byte as one process does; PageRank (each variant) passes the same
     * reference check, its answer within the tolerance rather than bit for bit (workers of several processes update
     * residuals in whatever order they run).
     */
    @ParameterizedTest(name = "{0} {1} --mode async {3}, across {2} processes")
    @CsvSource({"bfs, kron:10, 2, --queue=fifo", "bfs, grid:24x24, 2, --kernel=discrete",
        "sssp, kron:10, 2, --queue=priority", "sssp, grid:24x24, 3, --kernel=discrete",
        "pr, kron:10, 2, --async-variant=push --threads-per-device=2", "pr, kron:10, 2, --async-variant=pull",
        "pr, grid:24x24, 3, --kernel=discrete"})
    void anAsyncAppAcrossProcessesAnswersAsOneProcess(final String app, final String input, final int processes,
        final String options) throws Exception {
        final List<String> command = new ArrayList<>(List.of(app, "--generate", input, "--mode", "async"));
        command.addAll(Arrays.asList(options.split(" ")));
        command.addAll(List.of("--warmups", "0", "--devices", "3"));
        final Path[] answers = acrossProcessesAndHere(app, processes, command);
        if (!app.equals("pr")) {
            assertArrayEquals(Files.readAllBytes(answers[0]), Files.readAllBytes(answers[1]), app + " " + input
                + ": the answer of " + processes + " processes differs from one process's");
        } else {
            assertEquals(Files.readAllLines(answers[0]).size(), Files.readAllLines(answers[1]).size(),
                "a rank per vertex");
        }
        deleteBoth(answers);
    }

    /**
     * Runs {@code command} here (one process) and across {@code processes} processes with {@code --output}: the
     * launch must exit 0 with one verified report and one status line per other rank.
     *
     * @return the answer files of one process and of the launch
     */
    private Path[] acrossProcessesAndHere(final String app, final int processes, final List<String> command)
        throws Exception {
        final Path single = tmp.resolve("single.txt");
        final Path multi = tmp.resolve("multi.txt");
        final List<String> here = new ArrayList<>(command);
        here.addAll(List.of("--output", single.toString(), "--quiet"));
        runHere(here.toArray(new String[0]));

        final List<String> there = new ArrayList<>(command);
        there.addAll(List.of("--output", multi.toString()));
        try (LauncherProcess job = new LauncherProcess(launch(processes, there.toArray(new String[0])))) {
            assertEquals(0, job.awaitExit(BOUND_SECONDS, TimeUnit.SECONDS), job.transcript());
            assertEquals(1, job.out().stream().filter(l -> l.startsWith("verified ")).count(), "one report: "
                + job.transcript());
            assertTrue(job.out().contains("verified          passed"), job.transcript());
            assertTrue(job.out().contains("processes         " + processes), job.transcript());
            for (int r = 1; r < processes; r++) {
                final String status = "[rank " + r + "] overlap " + app + ": rank " + r + " of " + processes;
                assertEquals(1, job.err().stream().filter(l -> l.startsWith(status) && l.endsWith(" done")).count(),
                    "rank " + r + "'s one status line: " + job.transcript());
            }
        }
        return new Path[] {single, multi};
    }

    private void deleteBoth(final Path[] answers) throws Exception {
        Files.delete(answers[0]);
        Files.delete(answers[1]);
        assertNoJobLeft();
    }

    /** A PageRank that runs until it is killed (far more fixed iterations than the test waits for). */
    private static String[] endless() {
        return new String[] {"pr", "--generate", "kron:10", "--mode", "bsp", "--devices", "3", "--iterations",
            "1000000000", "--warmups", "0", "--no-verify"};
    }

    /** Waits until every rank has joined the job (every device's memory file exists): the run is under way. */
    private Path awaitJoined(final LauncherProcess job, final int devices) throws Exception {
        final String note = job.awaitErrLine(l -> l.contains("job directory "), BOUND_SECONDS, TimeUnit.SECONDS);
        final Path dir = Path.of(note.substring(note.indexOf("job directory ") + "job directory ".length()));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (true) {
            boolean all = Files.exists(dir.resolve("world.ctl"));
            for (int d = 0; d < devices && all; d++) {
                all = Files.exists(dir.resolve("dev" + d + ".mem"));
            }
            if (all) {
                return dir;
            }
            assertTrue(job.process().isAlive(), "the launcher exited before its ranks joined: " + job.transcript());
            assertTrue(System.nanoTime() - deadline < 0, "the ranks did not join: " + job.transcript());
            job.process().waitFor(20, TimeUnit.MILLISECONDS); // a bounded wait on the process, not a sleep
        }
    }

    @Test
    void aRankKilledMidRunIsNamedByEverySurvivorAndTheLauncherExitsWithItsCodeLeavingNoFiles() throws Exception {
        try (LauncherProcess job = new LauncherProcess(launch(3, endless()))) {
            final long[] pids = job.awaitPids(BOUND_SECONDS, TimeUnit.SECONDS);
            assertEquals(3, pids.length, job.transcript());
            awaitJoined(job, 3);
            ProcessHandle.of(pids[1]).orElseThrow().destroyForcibly(); // SIGKILL: no close, no leave
            assertEquals(137, job.awaitExit(BOUND_SECONDS, TimeUnit.SECONDS), "the killed rank's code: "
                + job.transcript());
            final List<String> err = job.err();
            assertTrue(err.stream().anyMatch(l -> l.startsWith("overlap pr: rank 1 failed: its process " + pids[1])),
                "rank 0 names rank 1: " + job.transcript());
            assertTrue(err.stream().anyMatch(l -> l.startsWith("[rank 2] overlap pr: rank 1 failed: its process "
                + pids[1])), "rank 2 names rank 1: " + job.transcript());
            assertTrue(err.contains("overlap launch: exit codes: rank 0 1, rank 1 137, rank 2 1; rank 1 failed first"),
                "every survivor exited by itself with 1: " + job.transcript());
            assertFalse(err.stream().anyMatch(l -> l.contains("still runs: killing it")), "the survivors exited "
                + "within the bound, without being killed: " + job.transcript());
            for (final long pid : pids) {
                assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid);
            }
        }
        assertNoJobLeft();
    }

    @Test
    void aJobWhoseProcessesAllDiedIsRemovedByTheNextLaunchWithANote() throws Exception {
        final Path dir;
        // a peer timeout long enough that a rank cannot notice the other's death (a tenth of it) before its own
        // kill, and clean up as the last one to leave
        try (LauncherProcess job = new LauncherProcess(launchWith(2, "10m", endless()))) {
            final long[] pids = job.awaitPids(BOUND_SECONDS, TimeUnit.SECONDS);
            dir = awaitJoined(job, 3);
            job.process().destroyForcibly().waitFor(BOUND_SECONDS, TimeUnit.SECONDS); // no hook runs on SIGKILL
            final List<ProcessHandle> ranks = new ArrayList<>();
            for (final long pid : pids) {
                ranks.add(ProcessHandle.of(pid).orElseThrow());
            }
            ranks.forEach(ProcessHandle::destroyForcibly);
            for (final ProcessHandle p : ranks) {
                p.onExit().get(BOUND_SECONDS, TimeUnit.SECONDS);
            }
        }
        assertTrue(Files.exists(dir.resolve("world.ctl")), "nobody was left to clean up");
        try (LauncherProcess next = new LauncherProcess(launch(2, "bfs", "--generate", "kron:8", "--mode", "bsp"))) {
            assertEquals(0, next.awaitExit(BOUND_SECONDS, TimeUnit.SECONDS), next.transcript());
            assertTrue(next.err().contains("overlap launch: removed 1 stale job directory of dead jobs: " + dir),
                next.transcript());
        }
        assertFalse(Files.exists(dir));
        assertNoJobLeft();
    }

    @Test
    void aTerminatedLauncherEndsItsRanksAndRemovesTheJob() throws Exception {
        final long[] pids;
        try (LauncherProcess job = new LauncherProcess(launch(2, endless()))) {
            pids = job.awaitPids(BOUND_SECONDS, TimeUnit.SECONDS);
            awaitJoined(job, 3);
            job.process().destroy(); // SIGTERM, as a Ctrl-C or a kill would: the shutdown hook runs
            job.awaitExit(BOUND_SECONDS, TimeUnit.SECONDS);
            for (final long pid : pids) {
                assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "rank pid " + pid
                    + " outlived its launcher: " + job.transcript());
            }
        }
        assertNoJobLeft();
    }
}
