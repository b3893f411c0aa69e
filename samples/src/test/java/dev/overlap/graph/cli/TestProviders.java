package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.partition.DeviceGraph;

/** Providers the commands' tests plug in through their {@code lookup} hooks. */
final class TestProviders {
    private TestProviders() {
    }

    /** Only bsp is registered (as before the async provider exists), whatever the class path holds. */
    static GraphAlgorithms bspOnly(final String mode) {
        if (mode.equals("bsp")) {
            return Algorithms.forMode("bsp");
        }
        throw new IllegalArgumentException(mode + " is not built in this test");
    }

    /** A provider under another mode name that answers through the bsp one, optionally wrong or incomplete. */
    static final class Renamed implements GraphAlgorithms {
        private final GraphAlgorithms bsp = Algorithms.forMode("bsp");
        private final String mode;
        private final boolean wrongBfs;
        private final boolean pageRankUnsupported;

        /**
         * @param mode                the mode name it reports
         * @param wrongBfs            give the BFS source depth 1 instead of 0
         * @param pageRankUnsupported throw UnsupportedOperationException from pageRank
         */
        Renamed(final String mode, final boolean wrongBfs, final boolean pageRankUnsupported) {
            this.mode = mode;
            this.wrongBfs = wrongBfs;
            this.pageRankUnsupported = pageRankUnsupported;
        }

        @Override
        public String mode() {
            return mode;
        }

        @Override
        public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
            final AppResult r = bsp.bfs(g, source, settings);
            if (wrongBfs) {
                final int[] d = r.depths().clone();
                d[source] = 1;
                return AppResult.bfs(d, r.nanos(), r.counts());
            }
            return r;
        }

        @Override
        public AppResult sssp(final DeviceGraph g, final int source, final AppSettings settings) {
            return bsp.sssp(g, source, settings);
        }

        @Override
        public AppResult pageRank(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
            if (pageRankUnsupported) {
                throw new UnsupportedOperationException("no PageRank here");
            }
            return bsp.pageRank(in, outDegrees, settings);
        }

        @Override
        public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers) {
            return bsp.stateBytesPerDevice(vertices, maxOwned, devices, workers);
        }
    }
}
