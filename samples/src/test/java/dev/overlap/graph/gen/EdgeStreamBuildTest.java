package dev.overlap.graph.gen;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeList;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Building from a regenerating stream gives the graph a build from the whole list gives, array for array. */
class EdgeStreamBuildTest {
    @Test
    void kroneckerStreamBuildsTheSameGraphAsItsList() {
        // less than one chunk; one full batch plus a partial chunk in a second batch
        for (final Kronecker k : new Kronecker[] {new Kronecker(8, 4), new Kronecker(16, 17)}) {
            assertTrue(k.edgeCount() < Kronecker.CHUNK || k.edgeCount() > (long)Kronecker.BATCH * Kronecker.CHUNK);
            for (final int maxWeight : new int[] {0, 255}) {
                for (final BuildOptions o : new BuildOptions[] {BuildOptions.UNDIRECTED_SIMPLE, BuildOptions.AS_IS}) {
                    final CsrGraph fromList = GraphBuilder.build(k.generate(7, maxWeight, Progress.none()),
                        k.vertexCount(), o, false, Progress.none());
                    final CsrGraph fromStream = GraphBuilder.build(k.stream(7, maxWeight, Progress.none()),
                        k.vertexCount(), o, false, Progress.none());
                    final String what = k + " maxWeight " + maxWeight + " " + o;
                    assertTrue(fromStream.sameAs(fromList), what);
                    assertEquals(fromList.fingerprint(), fromStream.fingerprint(), what);
                }
            }
        }
    }

    @Test
    void graphSpecBuildsWhatItBuiltFromTheList() {
        final GraphSpec spec = GraphSpec.parse("kron:12");
        final CsrGraph g = spec.build(3, true, Progress.none());
        final CsrGraph want = GraphBuilder.build(spec.generator().generate(3, spec.maxWeight(), Progress.none()),
            spec.generator().vertexCount(), BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
        assertTrue(g.sameAs(want));
    }

    @Test
    void aStreamWhoseSecondPassDiffersOrNamesAnOutsideVertexIsRejected() {
        final EdgeList first = new EdgeList(4, false);
        first.add(0, 1);
        first.add(1, 2);
        final EdgeList second = new EdgeList(4, false);
        second.add(0, 1);
        second.add(0, 2);
        final EdgeStream changing = new EdgeStream() {
            private int passes;

            @Override
            public boolean isWeighted() {
                return false;
            }

            @Override
            public long size() {
                return 2;
            }

            @Override
            public void forEachBatch(final Consumer<EdgeList> batch) {
                batch.accept(passes++ == 0 ? first : second);
            }
        };
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> GraphBuilder.build(changing, 3, BuildOptions.AS_IS, false, Progress.none()));
        assertTrue(e.getMessage().contains("second pass"), e.getMessage());
        final IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
            () -> GraphBuilder.build(EdgeStream.of(first), 2, BuildOptions.AS_IS, false, Progress.none()));
        assertTrue(outside.getMessage().contains("vertex 2"), outside.getMessage());
    }
}
