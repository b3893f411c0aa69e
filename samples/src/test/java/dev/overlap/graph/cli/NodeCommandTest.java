package dev.overlap.graph.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code overlap node}'s refusals: one line naming the argument (or the file and line), exit 2, before any rank
 * joins. The runs across hosts themselves are {@code NodeBfsAcrossProcessesTest} (integration-tests).
 */
class NodeCommandTest {
    @TempDir
    Path tmp;

    private Path hosts(final String... lines) throws Exception {
        return Files.write(tmp.resolve("hosts.txt"), List.of(lines));
    }

    private static void assertUsage(final CliRun run, final String says) {
        assertEquals(2, run.exit, run.err);
        assertTrue(run.err.contains(says), "expected '" + says + "' in: " + run.err);
        assertEquals(1, run.err.strip().lines().filter(l -> !l.isBlank()).count(), "one line: " + run.err);
    }

    @Test
    void anAppIsRequired() throws Exception {
        assertUsage(new CliRun("node", "--hosts", hosts("0 127.0.0.1 40100").toString(), "--rank", "0"),
            "missing app");
    }

    @Test
    void theHostFileAndRankAreRequired() {
        assertEquals(2, new CliRun("node", "--rank", "0", "bfs", "--generate", "kron:4").exit);
        assertEquals(2, new CliRun("node", "--hosts", "h.txt", "bfs", "--generate", "kron:4").exit);
    }

    @Test
    void aBadHostFileIsNamedWithItsLine() throws Exception {
        final Path h = hosts("0 127.0.0.1 40100", "1 127.0.0.2");
        assertUsage(new CliRun("node", "--hosts", h.toString(), "--rank", "0", "bfs", "--generate", "kron:4"),
            "hosts.txt line 2: expected 'rank host port'");
    }

    @Test
    void aWarmUpTimeFloorIsRefusedAcrossHosts() throws Exception {
        final Path h = hosts("0 127.0.0.1 40100", "1 127.0.0.1 40101");
        for (final String app : new String[] {"bfs", "sssp", "pr"}) {
            assertUsage(new CliRun("node", "--hosts", h.toString(), "--rank", "0", app, "--generate", "kron:4",
                "--warmup-ms", "200"), "--warmup-ms needs one process: ranks across processes must make the same runs");
        }
    }

    @Test
    void aRankNotInTheHostFileIsRefused() throws Exception {
        final Path h = hosts("0 127.0.0.1 40100", "1 127.0.0.2 40101");
        assertUsage(new CliRun("node", "--hosts", h.toString(), "--rank", "2", "bfs", "--generate", "kron:4"),
            "--rank 2 is not in");
    }

    @Test
    void timeoutsOutOfRangeAndTheBspModeAreRefused() throws Exception {
        final Path h = hosts("0 127.0.0.1 40100");
        assertUsage(new CliRun("node", "--hosts", h.toString(), "--rank", "0", "--peer-timeout", "5", "bfs",
            "--generate", "kron:4"), "--peer-timeout must be in 100..600000 ms, was 5");
        assertUsage(new CliRun("node", "--hosts", h.toString(), "--rank", "0", "--join-timeout", "0", "bfs",
            "--generate", "kron:4"), "--join-timeout must be in 1..3600 seconds, was 0");
        assertUsage(new CliRun("node", "--hosts", h.toString(), "--rank", "0", "bfs", "--generate", "kron:4",
            "--mode", "bsp"), "--mode must be async, was 'bsp'");
        assertUsage(new CliRun("node", "--hosts", h.toString(), "--rank", "0", "bfs", "--generate", "kron:4",
            "--direction", "sideways"), "--direction must be top-down or optimizing");
    }

    @Test
    void prRefusesTheAsyncModeAndBadPageRankFlags() throws Exception {
        final String h = hosts("0 127.0.0.1 40100").toString();
        final String[][] refused = {
            {"--mode", "async", "--mode must be bsp, was 'async'"},
            {"--iterations", "0", "--iterations must be >= 1, was 0"},
            {"--source", "1", "--source does not apply"},
            {"--damping", "1.5", "damping"}};
        for (final String[] r : refused) {
            assertUsage(new CliRun("node", "--hosts", h, "--rank", "0", "pr", "--generate", "kron:4", r[0], r[1]),
                r[2]);
        }
    }

    @Test
    void ssspRefusesTheBspModeAndABadDelta() throws Exception {
        final String h = hosts("0 127.0.0.1 40100").toString();
        assertUsage(new CliRun("node", "--hosts", h, "--rank", "0", "sssp", "--generate", "kron:4", "--mode", "bsp"),
            "--mode must be async, was 'bsp'");
        assertUsage(new CliRun("node", "--hosts", h, "--rank", "0", "sssp", "--generate", "kron:4", "--delta", "-1"),
            "--delta");
    }

    @Test
    void jacobiRefusesTheTransferChoiceAndBadSystemFlags() throws Exception {
        final String h = hosts("0 127.0.0.1 40100").toString();
        final String[][] refused = {
            {"--transfer", "profile", "--transfer profile and --profile choose a PROACT transfer mode"},
            {"--profile", "p.json", "--transfer profile and --profile choose a PROACT transfer mode"},
            {"--size", "0", "--size must be in 1.."},
            {"--tolerance", "0", "--tolerance must be > 0, was 0.0"},
            {"--max-iterations", "0", "--max-iterations must be >= 1, was 0"}};
        for (final String[] r : refused) {
            assertUsage(new CliRun("node", "--hosts", h, "--rank", "0", "jacobi", r[0], r[1]), r[2]);
        }
    }
}
