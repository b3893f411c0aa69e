package dev.overlap.graph.partition;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartitionTest {
    private final CsrGraph kron = GraphSpec.parse("kron:12").build(1, false, Progress.none());

    @Test
    void rangesCoverTheVerticesAndBalanceEdges() {
        final Partition p = Partition.byEdges(kron, 4);
        assertEquals(0, p.lo(0));
        assertEquals(kron.vertexCount(), p.hi(3));
        final long share = (kron.edgeCount() + kron.vertexCount()) / 4;
        for (int d = 0; d < 4; d++) {
            long cost = 0;
            for (int v = p.lo(d); v < p.hi(d); v++) {
                cost += kron.degree(v) + 1;
                assertEquals(d, p.owner(v));
                assertEquals(v, p.internal(v));
            }
            assertTrue(Math.abs(cost - share) <= kron.maxDegree() + 1, "device " + d + " cost " + cost + " vs "
                + share);
        }
    }

    @Test
    void hashIsABijectionGroupedByOwner() {
        final Partition p = Partition.byHash(kron, 3);
        final boolean[] seen = new boolean[kron.vertexCount()];
        for (int v = 0; v < kron.vertexCount(); v++) {
            final int i = p.internal(v);
            assertEquals(v, p.original(i));
            assertTrue(!seen[i]);
            seen[i] = true;
            final int o = p.owner(v);
            assertTrue(i >= p.lo(o) && i < p.hi(o));
            assertEquals(Partition.hashOwner(v, 3), o);
        }
        for (int d = 0; d < 3; d++) {
            assertTrue(Math.abs(p.size(d) - kron.vertexCount() / 3) < kron.vertexCount() / 10);
        }
    }

    @Test
    void degreeOrderKeepsTheRangesAndSortsEachByDegree() {
        final Partition ranges = Partition.byEdges(kron, 3);
        final Partition p = Partition.byEdgesDegreeOrdered(kron, 3);
        for (int d = 0; d < 3; d++) {
            assertEquals(ranges.lo(d), p.lo(d));
            assertEquals(ranges.hi(d), p.hi(d));
            for (int i = p.lo(d); i + 1 < p.hi(d); i++) {
                assertTrue(kron.degree(p.original(i)) >= kron.degree(p.original(i + 1)));
            }
        }
        for (int v = 0; v < kron.vertexCount(); v++) {
            assertEquals(v, p.original(p.internal(v)));
            assertEquals(ranges.owner(v), p.owner(v), "same owner as the plain ranges");
        }
    }

    @Test
    void placementCopiesEveryDeviceSlice() {
        final CsrGraph g = GraphSpec.parse("grid:17x9").build(2, true, Progress.none());
        try (Mesh mesh = Mesh.builder().name("place").devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20).build()) {
            for (final Partition p : new Partition[] {Partition.byEdges(g, 2), Partition.byHash(g, 2),
                Partition.byEdgesDegreeOrdered(g, 2)}) {
                try (DeviceGraph dg = DeviceGraph.place(mesh, g, p, true)) {
                    for (int d = 0; d < 2; d++) {
                        for (int i = 0; i < p.size(d); i++) {
                            final int u = p.original(p.lo(d) + i);
                            final long start = dg.offsets(d).get(i);
                            assertEquals(g.degree(u), dg.offsets(d).get(i + 1) - start);
                            for (int k = 0; k < g.degree(u); k++) {
                                final long e = g.edgeStart(u) + k;
                                assertEquals(p.internal(g.target(e)), dg.targets(d).get((int)start + k));
                                assertEquals(g.weight(e), dg.weights(d).get((int)start + k));
                            }
                        }
                    }
                }
            }
            assertEquals(mesh.memoryPerDevice(), mesh.freeMemory(0), "close frees the slices");
        }
    }
}
