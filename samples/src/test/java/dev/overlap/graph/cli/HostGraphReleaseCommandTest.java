package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.GraphApp;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code overlap bfs|pr|sssp} hold one copy of the graph during the timed runs: in a one-device mode the graph loads
 * straight into the device and no host graph is ever loaded; in the others the graph the command loaded is garbage by
 * the time the runs are asked whether to stop (after the first of two); in every mode, for a generated graph as for a
 * file, and the answer is still verified.
 */
class HostGraphReleaseCommandTest {
    /** The command of {@code app}, watching the graph it loads with a weak reference. */
    @CommandLine.Command(name = "probe")
    static final class Probe extends GraphAppCommand {
        private final GraphApp app;
        WeakReference<CsrGraph> loaded;
        int probes;
        boolean heldDuringRuns;

        Probe(final GraphApp app) {
            this.app = app;
        }

        @Override
        GraphApp app() {
            return app;
        }

        @Override
        Answer answer(final AppResult result, final int source) {
            return app == GraphApp.BFS ? Answer.depths(result.depths(), source) : app == GraphApp.SSSP
                ? Answer.distances(result.distances(), source) : Answer.ranks(result.ranks());
        }

        @Override
        GraphInputOptions.Loaded loadGraph(final boolean lead) throws IOException {
            final GraphInputOptions.Loaded l = super.loadGraph(lead);
            loaded = new WeakReference<>(l.graph);
            return l;
        }

        @Override
        BooleanSupplier stopRuns(final boolean lead) {
            return () -> {
                probes++;
                for (int i = 0; i < 20 && loaded != null && loaded.get() != null; i++) {
                    System.gc(); // a request: repeated until the weak reference clears, which a held graph never does
                }
                heldDuringRuns |= loaded != null && loaded.get() != null;
                return false;
            };
        }
    }

    private static String run(final Probe probe, final String... args) {
        final CommandLine cl = new CommandLine(probe).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler(CliErrors.handler());
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        final int exit = cl.execute(args);
        assertEquals(0, exit, String.join(" ", args) + ": " + err);
        return out.toString();
    }

    @Test
    void theLoadedGraphIsGarbageDuringTheRunsInEveryMode() throws IOException {
        final Path file = Files.createTempFile("release", ".el");
        try {
            Files.writeString(file, "0 1\n1 2\n2 3\n3 0\n1 3\n4 5\n");
            for (final GraphApp app : GraphApp.values()) {
                for (final String mode : GraphAppCommand.MODES) {
                    for (final String[] input : new String[][] {{"--generate", "kron:8"}, {"--graph", file.toString(),
                        "--symmetrize"}}) {
                        final Probe probe = new Probe(app);
                        final String what = app + " " + mode + " " + input[0];
                        final List<String> args = new ArrayList<>(List.of(input));
                        args.addAll(List.of("--mode", mode, "--warmups", "1", "--runs", "2", "--devices", "2",
                            "--threads-per-device", "1", "--quiet"));
                        final String out = run(probe, args.toArray(new String[0]));
                        assertTrue(out.contains("verified          passed"), what + ": " + out);
                        assertEquals(1, probe.probes, what);
                        assertFalse(probe.heldDuringRuns, what + ": the loaded graph was reachable during the runs");
                        final boolean oneDevice = !mode.equals("bsp") && !mode.equals("async");
                        assertEquals(oneDevice, probe.loaded == null, what + ": "
                            + (oneDevice ? "a one-device mode loads into the device, no host graph" : "a host graph"));
                    }
                }
            }
        } finally {
            Files.delete(file);
        }
    }
}
