package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.ref.Dijkstra;
import org.jgrapht.Graph;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm;
import org.jgrapht.alg.scoring.PageRank;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.graph.AbstractBaseGraph;
import org.jgrapht.graph.AsUnweightedGraph;
import org.jgrapht.graph.DefaultGraphSpecificsStrategy;
import org.jgrapht.graph.DefaultGraphType;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.traverse.BreadthFirstIterator;
import org.jgrapht.util.SupplierUtil;

import java.util.Map;

/**
 * JGraphT 1.5.3 as the comparison's library peer: a symmetric {@link CsrGraph} copied into a JGraphT undirected
 * weighted graph (one edge object per undirected edge, {@code Integer} vertices), and the library's own algorithms
 * on it: {@link BreadthFirstIterator}, {@link PageRank} (on the {@link AsUnweightedGraph} view, so edge weights do
 * not bias the walk) and single-source {@link DijkstraShortestPath#getPaths}.
 *
 * <p>The graph uses JGraphT's memory-lean {@link DefaultGraphSpecificsStrategy} (the default fast-lookup strategy adds
 * a hash index of vertex pairs that costs about as much again and only speeds up {@code getEdge(u, v)}, which none of
 * these algorithms calls) and a multigraph type, so adding an edge does not scan the endpoint's edges for a duplicate
 * (quadratic on Kronecker hubs); the input is simple, so the graph is too.
 *
 * <p>Thread-safety: not thread-safe; one thread builds it and runs the algorithms.
 */
final class JGraphTPeer {
    /**
     * Heap per vertex, measured on kron:16 and grid:512x512: the boxed id, its map entry, edge container and list
     * (about 240 B), and the algorithms' per-vertex state while they run (search maps, heap nodes, PageRank arrays).
     */
    static final long BYTES_PER_VERTEX = 640;
    /**
     * Heap per undirected edge, measured likewise: the edge object, its map entry, two list slots (about 90 B), and
     * PageRank's in-neighbour index.
     */
    static final long BYTES_PER_EDGE = 110;

    private final Graph<Integer, DefaultWeightedEdge> graph;
    private final Integer[] vertex;
    private final int n;

    /** The memory-lean undirected weighted graph (see the class comment). */
    static final class LeanUndirectedGraph extends AbstractBaseGraph<Integer, DefaultWeightedEdge> {
        private static final long serialVersionUID = 1L;

        LeanUndirectedGraph() {
            super(null, SupplierUtil.createDefaultWeightedEdgeSupplier(), new DefaultGraphType.Builder().undirected()
                .allowMultipleEdges(true).allowSelfLoops(false).weighted(true).build(),
                new DefaultGraphSpecificsStrategy<>());
        }
    }

    private JGraphTPeer(final Graph<Integer, DefaultWeightedEdge> graph, final Integer[] vertex) {
        this.graph = graph;
        this.vertex = vertex;
        this.n = vertex.length;
    }

    /** @return an estimate of the heap {@link #copyOf} and the algorithms need for {@code g} */
    static long estimateBytes(final CsrGraph g) {
        return g.vertexCount() * BYTES_PER_VERTEX + g.edgeCount() / 2 * BYTES_PER_EDGE;
    }

    /**
     * Copies {@code g} into JGraphT.
     *
     * @param g a symmetric graph without self-loops (weights become edge weights; 1 when unweighted)
     * @return the peer
     * @throws IllegalArgumentException when {@code g} is not symmetric or has a self-loop
     */
    static JGraphTPeer copyOf(final CsrGraph g) {
        if (!g.isSymmetric()) {
            throw new IllegalArgumentException("the JGraphT peer needs a symmetric graph (it builds an undirected one)");
        }
        final int n = g.vertexCount();
        final Integer[] vertex = new Integer[n];
        final LeanUndirectedGraph graph = new LeanUndirectedGraph();
        for (int v = 0; v < n; v++) {
            vertex[v] = v;
            graph.addVertex(vertex[v]);
        }
        for (int u = 0; u < n; u++) {
            for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                final int v = g.target(e);
                if (v == u) {
                    throw new IllegalArgumentException("vertex " + u + " has a self-loop: the JGraphT peer builds a "
                        + "graph without them");
                }
                if (u < v) {
                    final DefaultWeightedEdge edge = graph.addEdge(vertex[u], vertex[v]);
                    graph.setEdgeWeight(edge, g.weight(e));
                }
            }
        }
        return new JGraphTPeer(graph, vertex);
    }

    /** @return vertices */
    int vertexCount() {
        return n;
    }

    /** @return undirected edges */
    int edgeCount() {
        return graph.edgeSet().size();
    }

    /** @return a BFS from {@code source} run to the end with JGraphT's iterator (call {@link Bfs#depths} after timing) */
    Bfs bfs(final int source) {
        final BreadthFirstIterator<Integer, DefaultWeightedEdge> it = new BreadthFirstIterator<>(graph, vertex[source]);
        long reached = 0;
        while (it.hasNext()) {
            it.next();
            reached++;
        }
        return new Bfs(it, reached);
    }

    /** A finished JGraphT BFS. */
    final class Bfs {
        private final BreadthFirstIterator<Integer, DefaultWeightedEdge> it;
        private final long reached;

        Bfs(final BreadthFirstIterator<Integer, DefaultWeightedEdge> it, final long reached) {
            this.it = it;
            this.reached = reached;
        }

        /** @return vertices the iterator returned */
        long reached() {
            return reached;
        }

        /**
         * @param reference the reference depths (which vertices to ask for: JGraphT knows only those it reached)
         * @return JGraphT's depth of every vertex the reference reaches, -1 for the others
         */
        int[] depths(final int[] reference) {
            final int[] d = new int[n];
            for (int v = 0; v < n; v++) {
                d[v] = reference[v] >= 0 ? it.getDepth(vertex[v]) : -1;
            }
            return d;
        }
    }

    /**
     * @param damping    damping factor
     * @param iterations iterations to run (JGraphT's tolerance is set to the smallest positive double, so it stops
     *                   earlier only if no rank changes at all)
     * @return JGraphT's scores by vertex id
     */
    double[] pageRank(final double damping, final int iterations) {
        final Map<Integer, Double> scores = new PageRank<>(new AsUnweightedGraph<>(graph), damping, iterations,
            Double.MIN_VALUE).getScores();
        final double[] r = new double[n];
        for (int v = 0; v < n; v++) {
            r[v] = scores.get(vertex[v]);
        }
        return r;
    }

    /** @return JGraphT's single-source shortest paths from {@code source}, computed in full */
    ShortestPathAlgorithm.SingleSourcePaths<Integer, DefaultWeightedEdge> dijkstra(final int source) {
        return new DijkstraShortestPath<>(graph).getPaths(vertex[source]);
    }

    /**
     * @param paths a result of {@link #dijkstra}
     * @return the distances as exact integers ({@link Dijkstra#UNREACHED} for unreached vertices)
     * @throws IllegalStateException when a distance is not a whole number (int weights sum exactly in a double)
     */
    long[] distances(final ShortestPathAlgorithm.SingleSourcePaths<Integer, DefaultWeightedEdge> paths) {
        final long[] d = new long[n];
        for (int v = 0; v < n; v++) {
            final double w = paths.getWeight(vertex[v]);
            if (Double.isInfinite(w)) {
                d[v] = Dijkstra.UNREACHED;
            } else {
                if (w != Math.rint(w)) {
                    throw new IllegalStateException("JGraphT distance of vertex " + v + " is " + w + ", not a whole "
                        + "number");
                }
                d[v] = (long)w;
            }
        }
        return d;
    }
}
