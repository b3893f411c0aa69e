package dev.overlap.graph.async;

import dev.overlap.core.World;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;

/**
 * Async PageRank ({@code pr --mode async}): the entry point that checks the input, picks the variant and sizes the
 * device state.
 *
 * <p><b>Contract.</b> The same model as {@link dev.overlap.graph.ref.PowerIteration}: damping {@code a}, a vertex
 * without out-edges links to every vertex, ranks sum to 1. The answer is within {@link AppSettings#tolerance()} (L1)
 * of the exact PageRank, up to floating-point rounding: the host proves it with an error bound after each pass
 * ({@link PageRankBound}) rather than trusting the workers. There are no iterations: {@link
 * AppSettings#fixedIterations()} and {@link AppSettings#maxIterations()} do not apply, and {@code iterations}
 * reports the passes. {@code visited} counts vertex expansions (push) or recomputations (pull) against
 * {@code ideal = n}. The graph must be placed with its out-edges, not its reverse ({@link #checkOutEdges}).
 *
 * <p><b>Design.</b> Two variants ({@link PageRankVariant}, chosen by {@link AppSettings#pageRankVariant()}): push
 * with residuals over the out-edges ({@link PushPageRank}; Atos, with degree-scaled thresholds, a warm start at the
 * uniform vector and a kernel without atomics when a device has one worker), for any graph; and Gauss-Seidel pull
 * with block activation ({@link AsyncPullPageRank}) for dense or skewed symmetric graphs, where push spends its time
 * on CASes to hub residuals. Dangling rank is handled by normalising the answer (no broadcast per dangling vertex).
 * The derivations (the invariant of each variant, the warm start, why normalising is exact, the error bound) are in
 * {@code samples/docs/async-pagerank.md}; the measurements behind the choices are in {@code bench/results/}.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class AsyncPageRank {
    private AsyncPageRank() {
    }

    /** @return device bytes of either variant's state for a device owning {@code maxOwned} of {@code vertices} */
    static long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices) {
        final long owned = Math.max(1L, maxOwned);
        return Math.max(pushBytesPerDevice(Math.max(AtomicPushKernel.bytesPerDevice(owned),
            SoloPushKernel.bytesPerDevice(vertices, owned, devices)), devices),
            AsyncPullPageRank.stateBytesPerDevice(maxOwned));
    }

    /**
     * @param variant {@link PageRankVariant#PUSH} or {@link PageRankVariant#PULL}: the one that runs
     * @param workers workers per device (push runs the one-worker kernel on one, the atomic kernel on more)
     * @return device bytes of that variant's state for a device owning {@code maxOwned} of {@code vertices}
     */
    static long stateBytesPerDevice(final PageRankVariant variant, final int vertices, final int maxOwned,
        final int devices, final int workers) {
        final long owned = Math.max(1L, maxOwned);
        return variant == PageRankVariant.PULL ? AsyncPullPageRank.stateBytesPerDevice(maxOwned)
            : pushBytesPerDevice(workers == 1 ? SoloPushKernel.bytesPerDevice(vertices, owned, devices)
                : AtomicPushKernel.bytesPerDevice(owned), devices);
    }

    /** @return the push kernel's bytes, the alignment of each of its device arrays and the residual sums' slots */
    private static long pushBytesPerDevice(final long kernel, final int devices) {
        return kernel + 4096L * (devices + 2) + ResidualSums.bytesPerDevice();
    }

    /** Runs the variant {@link AppSettings#pageRankVariant()} names ({@link PageRankVariant#AUTO} by default). */
    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings) {
        return run(g, outDegrees, settings, PageRankVariant.of(settings.pageRankVariant()), 1.0);
    }

    /**
     * @param looseness factor on the first pass's threshold (1 in production; tests raise it to make the refinement
     *                  passes run)
     */
    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings,
        final PageRankVariant variant, final double looseness) {
        return variant.resolve(g.summary()) == PageRankVariant.PULL
            ? AsyncPullPageRank.run(g, outDegrees, settings, looseness, AsyncPullPageRank.SHIFT)
            : PushPageRank.run(g, outDegrees, settings, looseness);
    }

    /**
     * Both variants need the out-edges on the mesh: a graph placed the other way round (the pull baselines' reverse
     * graph) would silently compute the PageRank of the reversed graph, so the device degrees must match
     * {@code outDegrees}.
     *
     * @throws IllegalArgumentException when they do not
     */
    static void checkOutEdges(final DeviceGraph g, final int[] outDegrees) {
        final Partition p = g.partition();
        if (outDegrees.length != p.vertexCount()) {
            throw new IllegalArgumentException(outDegrees.length + " out-degrees for " + p.vertexCount() + " vertices");
        }
        final World world = g.mesh().world();
        // this process's slices: another rank's may not be complete before the ranks meet, and it checks its own
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final int lo = p.lo(d);
            long prev = g.offsets(d).get(0);
            for (int i = 0, size = p.size(d); i < size; i++) {
                final long next = g.offsets(d).get(i + 1);
                if (next - prev != outDegrees[p.original(lo + i)]) {
                    throw new IllegalArgumentException("async PageRank pushes along out-edges, but vertex "
                        + p.original(lo + i) + " has " + (next - prev) + " edges on the mesh and out-degree "
                        + outDegrees[p.original(lo + i)] + ": place the graph itself, not its reverse "
                        + "(GraphAlgorithms.pageRankEdges() is OUT)");
                }
                prev = next;
            }
        }
    }
}
