package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A forked measurement's sequential answer goes to a file and comes back whole: the checker built from it passes the
 * answer itself and fails one changed value; the file is gone once read, or once discarded.
 */
class SpilledAnswerTest {
    private static final CsrGraph KRON = GraphSpec.parse("kron:10").build(2, true, Progress.none());
    private static final AppSettings FIXED = AppSettings.builder().fixedIterations(7).build();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(GraphApp.class)
    void anAnswerComesBackWholeAndItsFileGoes(final GraphApp app) throws IOException {
        final int source = GraphApp.defaultSource(KRON, 1);
        final AppResult seq = app.sequential(KRON, source, FIXED);
        final SpilledAnswer spilled = SpilledAnswer.of(app, source, FIXED, seq, dir);
        assertEquals(1, files());
        final GraphApp.Expected expected = spilled.expected();
        assertEquals(0, files(), "read back once, the file is deleted");
        assertTrue(expected.check(seq).passed(), app + ": " + expected.check(seq));
        final AppResult changed;
        switch (app) {
            case BFS: {
                final int[] d = seq.depths().clone();
                d[source] = 1;
                changed = AppResult.bfs(d, 0, seq.counts());
                break;
            }
            case SSSP: {
                final long[] d = seq.distances().clone();
                d[source] = 1;
                changed = AppResult.sssp(d, 0, seq.counts());
                break;
            }
            default: {
                final double[] r = seq.ranks().clone();
                r[source] += 1e-6;
                changed = AppResult.pageRank(r, 0, seq.counts());
            }
        }
        assertFalse(expected.check(changed).passed(), app + ": a changed value passes");
    }

    @Test
    void aDiscardedAnswerLeavesNoFileAndAToleranceRunIsRefused() throws IOException {
        final AppResult seq = GraphApp.BFS.sequential(KRON, 0, FIXED);
        SpilledAnswer.of(GraphApp.BFS, 0, FIXED, seq, dir).discard();
        assertEquals(0, files());
        final AppSettings tolerance = AppSettings.builder().tolerance(1e-6).build();
        final AppResult pr = GraphApp.PAGERANK.sequential(KRON, 0, FIXED);
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> SpilledAnswer.of(GraphApp.PAGERANK, 0, tolerance, pr, dir)).getMessage()
            .contains("only a fixed-iteration PageRank answer is exact"));
        assertEquals(0, files());
    }

    private long files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
