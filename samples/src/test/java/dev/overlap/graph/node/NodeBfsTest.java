package dev.overlap.graph.node;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.ref.SequentialBfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link NodeBfs} with two ranks as threads of this JVM ({@link LoopbackRanks}), on a mesh sized by {@link NodeBfs#bytesPerDevice} alone: a graph of 2^20 vertices, where the queue the worklist rounds
 * up to a power of two and the per-vertex arrays on device 0 outgrow any fixed slack (a budget that left them out
 * failed on kron:20 with "device memory exhausted"), answers as the sequential BFS does.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NodeBfsTest {
    private static final int RANKS = 2;
    private static final int DEVICES = 1;

    /** A ring of {@code n} vertices both ways plus chords every 1,000: 2^20 vertices, a few edges each. */
    private static CsrGraph ring(final int n) {
        final long[] offsets = new long[n + 1];
        final List<int[]> rows = new ArrayList<>(n);
        long m = 0;
        for (int v = 0; v < n; v++) {
            final int[] row = v % 1000 == 0 ? new int[] {(v + 1) % n, (v + n - 1) % n, (v + n / 2) % n}
                : new int[] {(v + 1) % n, (v + n - 1) % n};
            rows.add(row);
            m += row.length;
            offsets[v + 1] = m;
        }
        final int[] targets = new int[(int)m];
        int at = 0;
        for (final int[] row : rows) {
            for (final int t : row) {
                targets[at++] = t;
            }
        }
        return CsrGraph.wrap(offsets, targets, null, true);
    }

    @Test
    void aMeshSizedByBytesPerDeviceHoldsAMillionVertexBfsAndAnswersAsTheSequentialOne() throws Exception {
        final CsrGraph g = ring(1 << 20);
        final int source = 12_345;
        final int[] expected = SequentialBfs.depths(g, source);
        final int queue = (int)Math.min(1 << 24, 2L * g.vertexCount() / (RANKS * DEVICES) + 1);
        final long bytes = NodeBfs.bytesPerDevice(g.vertexCount(), RANKS, DEVICES, queue, 1 << 20, DEVICES);
        final List<int[]> got = LoopbackRanks.run(RANKS, DEVICES, bytes, 1 << 20, "bfs",
            (rank, group, mesh, transport, ht) -> {
                try (NodeBfs bfs = new NodeBfs(g, mesh, transport, group, ht, queue, 0)) {
                    bfs.run(source);
                    return bfs.gather();
                }
            });
        assertNull(got.get(1), "only rank 0 gathers");
        assertArrayEquals(expected, got.get(0));
    }
}
