package dev.overlap.graph.cli;

import dev.overlap.core.PeerFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code overlap launch} in this JVM, where it never gets to start a process: its help, every wrong argument (one
 * line, exit 2, before anything starts, the command's own included), the environment its ranks read
 * ({@link LaunchedWorld}) and the guard that halts a rank that outlives a peer's failure. The runs across processes
 * are {@code LaunchAcrossProcessesTest} (integration-tests).
 */
@Timeout(60)
class LaunchCommandTest {
    @TempDir
    Path tmp;

    @Test
    void helpListsLaunchAndLaunchHasItsOwn() {
        final CliRun top = new CliRun("--help");
        assertTrue(top.out.contains("\n  launch "), top.out);
        final CliRun help = new CliRun("launch", "--help");
        assertEquals(0, help.exit, help.err);
        for (final String part : new String[] {"--processes", "--dir", "--peer-timeout", "--join-timeout",
            LaunchedWorld.DIR_ENV, LaunchedWorld.RANK_ENV, "overlap launch --processes 2 bfs"}) {
            assertTrue(help.out.contains(part), part + " in " + help.out);
        }
    }

    @Test
    void theCommandsHelpIsPrintedOnceAndNothingStarts() {
        final CliRun run = new CliRun("launch", "--processes", "2", "--dir", tmp.toString(), "bfs", "--help");
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains("Breadth-first search"), run.out);
        assertEquals("", run.err);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "launch bfs --generate kron:8|overlap launch: missing required option: '--processes=N'",
        "launch --processes 0 bfs|overlap launch: --processes must be in 1..64, was 0",
        "launch --processes 65 bfs|overlap launch: --processes must be in 1..64, was 65",
        "launch --processes 2|overlap launch: missing required parameter: 'COMMAND'",
        "launch --processes 2 --peer-timeout 5h bfs|overlap launch: --peer-timeout must be a duration such as 500ms",
        "launch --processes 2 --peer-timeout 50ms bfs|overlap launch: --peer-timeout must be in 100ms..600s, was 50ms",
        "launch --processes 2 --join-timeout 2000m bfs|overlap launch: --join-timeout must be in 1ms..3600s, was 2000m",
        "launch --processes=2 --dir /no/such/dir bfs|overlap launch: --dir /no/such/dir is not a directory",
        "launch --processes 2 demo|overlap launch: 'demo' does not run across processes: launch runs bfs, pr, sssp",
        "launch --processes 2 launch --processes 2 bfs|overlap launch: 'launch' does not run across processes",
        "launch --processes 2 nosuch|overlap: unknown command 'nosuch'",
        "launch --processes 2 bfs --bogus|overlap bfs: unknown option '--bogus'",
        "launch --processes 3 pr --generate kron:8|overlap pr: --devices 2 is fewer than the 3 processes",
        "launch --processes 2 sssp --generate kron:8 --runs 0|overlap sssp: --runs must be in 1..1000, was 0",
        "launch --processes 2 bfs --generate kron:8 --mode solo|overlap bfs: --mode solo runs on one device in one "
            + "process, not across processes",
        "launch --processes 2 pr --generate kron:8 --mode coop|overlap pr: --mode coop runs on one device in one "
            + "process, not across processes",
        "launch --processes 2 pr --generate kron:8 --mode turbo|overlap pr: --mode must be async, bsp, solo, coop or "
            + "auto, was 'turbo'",
        "launch --processes 2 jacobi --transfer profile|overlap jacobi: --transfer profile times the mesh of one process",
        "launch --processes 2 jacobi --size 1|overlap jacobi: --size 1 is smaller than --devices 2"})
    void aWrongArgumentIsOneLineAndNothingStarts(final String args, final String line) throws Exception {
        final CliRun run = new CliRun(args.replace("--processes 2 ", "--processes 2 --dir " + tmp + " ").split(" "));
        assertEquals(2, run.exit, run.err);
        assertEquals(1, run.err.lines().count(), run.err);
        assertTrue(run.err.startsWith(line), "expected '" + line + "...', got: " + run.err);
        assertEquals("", run.out);
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "nothing was started");
        }
    }

    @Test
    void durationsTakeMillisecondsSecondsAndMinutes() {
        final picocli.CommandLine cl = OverlapCommand.commandLine();
        assertEquals(250, LaunchCommand.millis(cl, "--x", "250ms", 1, 10_000));
        assertEquals(3000, LaunchCommand.millis(cl, "--x", "3s", 1, 10_000));
        assertEquals(3000, LaunchCommand.millis(cl, "--x", "3", 1, 10_000));
        assertEquals(120_000, LaunchCommand.millis(cl, "--x", "2m", 1, 1_000_000));
        assertThrows(picocli.CommandLine.ParameterException.class, () -> LaunchCommand.millis(cl, "--x", "-1s", 1, 9));
        assertEquals(5000 * 3 + 5000, LaunchCommand.straggleMillis(5000), "detection, grace, margin");
    }

    @Test
    void theRanksReadTheirWorldFromTheEnvironment() {
        assertNull(LaunchedWorld.fromEnvironment(Map.of()), "no world: one process");
        final LaunchedWorld w = LaunchedWorld.fromEnvironment(Map.of(LaunchedWorld.DIR_ENV, tmp.toString(),
            LaunchedWorld.RANKS_ENV, "3", LaunchedWorld.RANK_ENV, "2", LaunchedWorld.PEER_TIMEOUT_ENV, "1500"));
        assertEquals(tmp, w.directory());
        assertEquals(3, w.ranks());
        assertEquals(2, w.rank());
        assertEquals(1500, w.peerTimeoutMillis());
        assertEquals(3000, w.graceMillis());
        assertEquals("rank 2 of 3 (devices 4..5)", MeshOptions.describeRank(w, 6));
        assertEquals("rank 2 of 3 (device 2)", MeshOptions.describeRank(w, 3));
        final String d = tmp.toString();
        for (final Map<String, String> bad : List.of(Map.of(LaunchedWorld.DIR_ENV, d),
            Map.of(LaunchedWorld.DIR_ENV, d, LaunchedWorld.RANKS_ENV, "2", LaunchedWorld.RANK_ENV, "2"),
            Map.of(LaunchedWorld.DIR_ENV, d, LaunchedWorld.RANKS_ENV, "two", LaunchedWorld.RANK_ENV, "0"),
            Map.of(LaunchedWorld.DIR_ENV, d, LaunchedWorld.RANKS_ENV, "2", LaunchedWorld.RANK_ENV, "0",
                LaunchedWorld.PEER_TIMEOUT_ENV, "10"))) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LaunchedWorld.fromEnvironment(bad), bad.toString());
            assertTrue(e.getMessage().contains("OVERLAP_"), e.getMessage());
        }
    }

    @Test
    void aRankThatOutlivesAPeersFailureByTheGracePeriodHaltsWithOneLine() throws Exception {
        final LaunchedWorld w = new LaunchedWorld(tmp, 2, 0, 100, 1000);
        final StringWriter err = new StringWriter();
        final CountDownLatch halted = new CountDownLatch(1);
        final AtomicInteger code = new AtomicInteger(-1);
        w.haltAfterGrace("overlap bfs", new PrintWriter(err), c -> {
            code.set(c);
            halted.countDown();
        }, new PeerFailedException(1, "its process 42 exited"));
        assertTrue(halted.await(30, TimeUnit.SECONDS), "the guard never halted");
        assertEquals(1, code.get());
        assertEquals("overlap bfs: rank 1 failed: its process 42 exited (rank 0 still ran 200 ms later: halting)",
            err.toString().trim());
    }

    @Test
    void aPeerFailureIsReportedAsTheRankThatFailedWhereverItSurfaced() {
        final RuntimeException wrapped = new IllegalStateException("closing the exchange failed",
            new PeerFailedException(2, "its process 7 exited"));
        assertEquals("rank 2 failed: its process 7 exited", CliErrors.describe(wrapped));
    }
}
