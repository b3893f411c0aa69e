package dev.overlap.graph.node;

import dev.overlap.core.Mesh;
import dev.overlap.hosts.HostFile;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;
import dev.overlap.testing.UdpPorts;
import dev.overlap.transport.Transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Ranks as threads of this JVM for the tests across hosts: rank {@code r} on 127.0.0.{@code r + 1} (each with its
 * embedded media driver, a free UDP port), with its host group, mesh, transport and host transport, closed after
 * the rank's body. Every wait is bounded.
 */
final class LoopbackRanks {
    /** The longest any rank may take to join, and to finish its body. */
    static final long BOUND_SECONDS = 90;

    private LoopbackRanks() {
    }

    /** One rank's work, with its parts built. */
    @FunctionalInterface
    interface Body<T> {
        /**
         * @param rank          this rank
         * @param group         its host group
         * @param mesh          its mesh
         * @param transport     its transport
         * @param hostTransport its host transport
         * @return what the test checks of this rank
         * @throws Exception whatever the body throws fails the test
         */
        T run(int rank, HostGroup group, Mesh mesh, Transport transport, HostTransport hostTransport)
            throws Exception;
    }

    /**
     * Runs {@code body} on {@code ranks} ranks at once.
     *
     * @param ranks          ranks
     * @param devices        devices per rank (one thread each)
     * @param bytesPerDevice device memory
     * @param ringCapacity   the transport's inbox ring, 0 for its default
     * @param name           the meshes' name prefix
     * @return what each rank's body returned, by rank
     */
    static <T> List<T> run(final int ranks, final int devices, final long bytesPerDevice, final int ringCapacity,
        final String name, final Body<T> body) throws Exception {
        final List<String> lines = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            final String host = "127.0.0." + (r + 1);
            lines.add(r + " " + host + " " + UdpPorts.free(host));
        }
        final HostFile hosts = HostFile.parse("test-hosts", lines);
        final ExecutorService pool = Executors.newFixedThreadPool(ranks);
        try {
            final List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                final int rank = r;
                futures.add(pool.submit(() -> {
                    final Transport.Builder tb = Transport.builder();
                    try (HostGroup group = HostGroup.builder(hosts, rank).joinTimeout(BOUND_SECONDS, TimeUnit.SECONDS)
                            .peerTimeout(5, TimeUnit.SECONDS).join();
                         Mesh mesh = Mesh.builder().devices(devices).threadsPerDevice(1).memoryPerDevice(bytesPerDevice)
                             .name(name + "-r" + rank).build();
                         Transport transport = (ringCapacity > 0 ? tb.ringCapacity(ringCapacity) : tb).mesh(mesh)
                             .build();
                         HostTransport ht = HostTransport.builder(group, transport).build()) {
                        return body.run(rank, group, mesh, transport, ht);
                    }
                }));
            }
            final List<T> out = new ArrayList<>();
            for (final Future<T> f : futures) {
                out.add(f.get(BOUND_SECONDS, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
