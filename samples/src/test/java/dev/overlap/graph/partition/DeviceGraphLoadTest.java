package dev.overlap.graph.partition;

import dev.overlap.core.Mesh;
import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.ChangingEdges;
import dev.overlap.graph.Csr;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A graph loaded straight into a device's memory ({@link DeviceGraph#load}) is the graph {@link GraphBuilder} builds on
 * the heap from the same edges, read back through {@link DeviceGraph#csr()}; a load that fails closes the mesh it was
 * given; the view refuses to read once the graph is closed.
 */
@Timeout(120)
class DeviceGraphLoadTest {
    private static final BuildOptions DIRECTED_RAW = BuildOptions.AS_IS;
    private static final BuildOptions DIRECTED_SIMPLE = new BuildOptions(false, true, true);

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        for (final String spec : new String[] {"kron:10", "grid:30x20", "road:2000", "urand:9"}) {
            for (final boolean weighted : new boolean[] {false, true}) {
                list.add(Arguments.of(spec, weighted, "as generated"));
                list.add(Arguments.of(spec, weighted, "directed, duplicates and loops kept"));
                list.add(Arguments.of(spec, weighted, "directed, duplicates and loops dropped"));
            }
        }
        return list.stream();
    }

    @ParameterizedTest(name = "{0}, weighted {1}, {2}")
    @MethodSource("cases")
    void aLoadedGraphIsTheGraphTheBuilderMakesOnTheHeap(final String spec, final boolean weighted,
        final String options) {
        final GraphSpec s = GraphSpec.parse(spec);
        final BuildOptions o = options.equals("as generated") ? s.options()
            : options.endsWith("kept") ? DIRECTED_RAW : DIRECTED_SIMPLE;
        final CsrGraph expected = GraphBuilder.build(s.edges(5, weighted, Progress.none()), s.vertexCount(), o, false,
            Progress.none());
        final AtomicReference<Mesh> mesh = new AtomicReference<>();
        try (DeviceGraph dg = DeviceGraph.load(s.edges(5, weighted, Progress.none()), s.vertexCount(), o, false,
            weighted, meshOf(mesh, 1, 0), Progress.none())) {
            assertEquals(mesh.get(), dg.mesh());
            assertSame(expected, dg.csr());
            final GraphSummary a = GraphSummary.of(expected);
            final GraphSummary b = dg.summary();
            assertEquals(a.vertexCount(), b.vertexCount());
            assertEquals(a.edgeCount(), b.edgeCount());
            assertEquals(a.isSymmetric(), b.isSymmetric());
            assertEquals(a.isWeighted(), b.isWeighted());
            assertEquals(a.weightSum(), b.weightSum());
            assertEquals(a.maxWeight(), b.maxWeight());
            assertEquals(a.maxDegree(), b.maxDegree());
            assertEquals(a.verticesWithEdges(), b.verticesWithEdges());
            assertEquals(expected.edgeCount(), dg.localEdges(0));
            assertEquals(weighted, dg.hasWeights());
        } finally {
            mesh.get().close();
        }
    }

    @Test
    void aLoadingDestinationBuildsOneGraphAndRefusesASecondWithoutTouchingTheFirst() {
        final GraphSpec s = GraphSpec.parse("grid:10x10");
        final AtomicReference<Mesh> mesh = new AtomicReference<>();
        final GraphBuilder.Destination<DeviceGraph> into = DeviceGraph.loading(false, meshOf(mesh, 1, 0));
        try (DeviceGraph first = GraphBuilder.build(s.edges(1, false, Progress.none()), s.vertexCount(), s.options(),
            false, Progress.none(), into)) {
            final Mesh firstMesh = mesh.get();
            final IllegalStateException again = assertThrows(IllegalStateException.class, () -> GraphBuilder.build(
                s.edges(1, false, Progress.none()), s.vertexCount(), s.options(), false, Progress.none(), into));
            assertTrue(again.getMessage().contains("builds one graph"), again.getMessage());
            assertEquals(firstMesh, mesh.get(), "no second mesh was built");
            assertTrue(!firstMesh.isClosed(), "the first graph's mesh is untouched");
            assertEquals(s.build(1, false, Progress.none()).edgeCount(), first.csr().edgeCount());
        } finally {
            mesh.get().close();
        }
    }

    @Test
    void aLoadWithoutWeightsOfWeightedEdgesDropsThemAndUnitWeightsFillAnUnweightedLoad() {
        final GraphSpec s = GraphSpec.parse("grid:10x10");
        final AtomicReference<Mesh> mesh = new AtomicReference<>();
        try (DeviceGraph dg = DeviceGraph.load(s.edges(1, false, Progress.none()), s.vertexCount(), s.options(), false,
            true, meshOf(mesh, 1, 0), Progress.none())) {
            assertTrue(dg.hasWeights(), "weights placed, as place(..., true) does for an unweighted graph");
            assertEquals(false, dg.csr().isWeighted());
            for (long e = 0; e < dg.localEdges(0); e++) {
                assertEquals(1, dg.weights(0).get((int)e));
            }
        } finally {
            mesh.get().close();
        }
    }

    @Test
    void aSecondPassThatDiffersFailsNamingTheVertexAndClosesTheMesh() {
        // the second pass gives vertex 1 two edges and vertex 2 none, where the first gave each one
        final EdgeStream changing = ChangingEdges.of(ChangingEdges.edges(0, 1, 1, 2, 2, 0),
            ChangingEdges.edges(0, 1, 1, 2, 1, 0));
        final AtomicReference<Mesh> mesh = new AtomicReference<>();
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceGraph.load(changing,
            3, DIRECTED_RAW, false, false, meshOf(mesh, 1, 0), Progress.none()));
        assertTrue(e.getMessage().contains("second pass"), e.getMessage());
        assertTrue(mesh.get().isClosed(), "the load closed the mesh it was given");
    }

    @Test
    void aMeshOfTwoDevicesOrWithoutRoomIsRefusedAndClosedAndAFailingMeshForIsNotAFormatError() throws Exception {
        final GraphSpec s = GraphSpec.parse("grid:30x30");
        final AtomicReference<Mesh> two = new AtomicReference<>();
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> DeviceGraph.load(
            s.edges(1, false, Progress.none()), s.vertexCount(), s.options(), false, false, meshOf(two, 2, 0),
            Progress.none()));
        assertTrue(e.getMessage().contains("one device"), e.getMessage());
        assertTrue(two.get().isClosed());
        final AtomicReference<Mesh> small = new AtomicReference<>();
        final IllegalStateException full = assertThrows(IllegalStateException.class, () -> DeviceGraph.load(
            s.edges(1, false, Progress.none()), s.vertexCount(), s.options(), false, false, meshOf(small, 1, -8192),
            Progress.none()));
        assertTrue(full.getMessage().contains("device memory exhausted"), full.getMessage());
        assertTrue(small.get().isClosed());
        // a mesh builder's refusal (here: below the 4096 bytes a device holds at least) is the caller's mistake,
        // which a file's reader reports as it is, not as a malformed file
        final java.nio.file.Path file = java.nio.file.Files.createTempFile("load", ".el");
        try {
            java.nio.file.Files.writeString(file, "0 1\n1 2\n");
            final IllegalStateException tiny = assertThrows(IllegalStateException.class, () ->
                dev.overlap.graph.io.GraphReader.read(file, null, BuildOptions.AS_IS, false, Progress.none(),
                    DeviceGraph.loading(false, (v, m, bytes) -> Mesh.builder().devices(1).memoryPerDevice(bytes)
                        .build())));
            assertTrue(tiny.getMessage().startsWith("meshFor could not build a mesh for 3 vertices and 2 edges"),
                tiny.getMessage());
        } finally {
            java.nio.file.Files.delete(file);
        }
    }

    @Test
    void theViewRefusesToReadOnceTheGraphIsClosedAndSpansOneDeviceOnly() {
        final CsrGraph g = GraphSpec.parse("grid:20x20").build(1, false, Progress.none());
        try (Mesh two = Mesh.builder().name("csr2").devices(2).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
            DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), false)) {
            assertThrows(IllegalStateException.class, dg::csr);
        }
        try (Mesh one = Mesh.builder().name("csr1").devices(1).threadsPerDevice(1).memoryPerDevice(1 << 20).build()) {
            final DeviceGraph dg = DeviceGraph.place(one, g, Partition.byEdgesDegreeOrdered(g, 1), false);
            final Csr view = dg.csr();
            assertSame(g, view); // in the original ids, though the device holds a renumbered slice
            dg.close();
            assertThrows(IllegalStateException.class, () -> view.edgeStart(0));
        }
    }

    /** @return a mesh builder for {@link DeviceGraph#load} that keeps what it built in {@code built} */
    private static DeviceGraph.MeshFor meshOf(final AtomicReference<Mesh> built, final int devices, final long extra) {
        return (vertices, edges, bytes) -> {
            final Mesh m = Mesh.builder().name("load").devices(devices).threadsPerDevice(2)
                .memoryPerDevice(Math.max(4096, bytes + extra)).build();
            built.set(m);
            return m;
        };
    }

    private static void assertSame(final CsrGraph expected, final Csr actual) {
        assertEquals(expected.vertexCount(), actual.vertexCount());
        assertEquals(expected.edgeCount(), actual.edgeCount());
        assertEquals(expected.isSymmetric(), actual.isSymmetric());
        assertEquals(expected.isWeighted(), actual.isWeighted());
        for (int v = 0; v < expected.vertexCount(); v++) {
            assertEquals(expected.degree(v), actual.degree(v), "degree of " + v);
            for (long e = expected.edgeStart(v), a = actual.edgeStart(v); e < expected.edgeEnd(v); e++, a++) {
                assertEquals(expected.target(e), actual.target(a), "edge " + e + " of " + v);
                assertEquals(expected.weight(e), actual.weight(a), "weight of edge " + e + " of " + v);
            }
        }
    }
}
