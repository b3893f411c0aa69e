package dev.overlap.bench.transport;

import dev.overlap.core.DeviceRegion;
import dev.overlap.core.GlobalAddress;
import dev.overlap.core.Mesh;
import dev.overlap.hosts.HostEndpoint;
import dev.overlap.hosts.HostFile;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;
import dev.overlap.testing.UdpPorts;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.CloseHelper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * For {@link HostTransportBenchmark}: two ranks of a host group as threads of this JVM, rank 0 on 127.0.0.1 and rank
 * 1 on 127.0.0.2, both on the media driver whose directory the benchmark gives (the set-up of the hosts module's
 * tests). Each rank has a mesh of one device and a transport without a progress thread; rank 1's device counts the
 * items of queue {@link #QUEUE} in its handler. Rank 0's {@link #endpoint()} sends to rank 1; rank 1's host
 * transport receiver applies every message (claims a batch into dev0's inbox and, when the inbox is full or it has
 * nothing else to do, drains it, so the handler runs on the receiver; a put is its forwarding endpoint's put) and
 * reports back. The collective steps (join, build, close) run on both ranks at once, each bounded.
 */
final class HostPair implements AutoCloseable {
    static final int QUEUE = 0;
    private static final long BOUND_SECONDS = 60;

    private final ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
        final Thread t = new Thread(r, "host-pair-setup");
        t.setDaemon(true);
        return t;
    });
    private final HostGroup[] groups = new HostGroup[2];
    private final Mesh[] meshes = new Mesh[2];
    private final Transport[] transports = new Transport[2];
    private final HostTransport[] hostTransports = new HostTransport[2];
    private final DeviceRegion[] putTargets = new DeviceRegion[2];
    private final TransportBenchSupport.CountHandler received = new TransportBenchSupport.CountHandler();
    private HostEndpoint endpoint;

    /**
     * @param driverDir   the media driver both ranks use
     * @param termLength  the Aeron term length of the host transport's publications
     * @param ringBytes   the inbox ring capacity of both transports
     * @param memoryBytes device memory per device (holds the put target of {@code putBytes})
     * @param putBytes    the put target's size
     */
    HostPair(final Path driverDir, final int termLength, final int ringBytes, final int memoryBytes,
        final int putBytes) throws Exception {
        final List<String> lines = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            final String host = "127.0.0." + (r + 1);
            lines.add(r + " " + host + " " + UdpPorts.free(host));
        }
        final HostFile hosts = HostFile.parse("bench-hosts", lines);
        try {
            both(rank -> groups[rank] = HostGroup.builder(hosts, rank).aeronDirectory(driverDir)
                .joinTimeout(BOUND_SECONDS, TimeUnit.SECONDS).join());
            for (int r = 0; r < 2; r++) {
                meshes[r] = Mesh.builder().name("hosts-bench-r" + r).devices(1).threadsPerDevice(1)
                    .memoryPerDevice(memoryBytes).build();
                putTargets[r] = meshes[r].allocateSymmetric(putBytes, 64);
                transports[r] = Transport.builder().mesh(meshes[r]).ringCapacity(ringBytes).build();
                transports[r].registerHandler(0, QUEUE, ItemType.INT, received);
            }
            both(rank -> hostTransports[rank] = HostTransport.builder(groups[rank], transports[rank])
                .termLength(termLength).build());
            endpoint = hostTransports[0].newEndpoint(0);
        } catch (final Exception | Error e) {
            close();
            throw e;
        }
    }

    /** @return rank 0's endpoint, for one thread at a time */
    HostEndpoint endpoint() {
        return endpoint;
    }

    /** @return the global address on rank 1 of the put target's first byte */
    long putTarget() {
        return GlobalAddress.of(0, putTargets[1].offset());
    }

    /** @return the {@code long} at the put target's first byte on rank 1 (read after {@code quiet()}) */
    long putTargetFirstLong() {
        return putTargets[1].buffer(0).getLongVolatile(0);
    }

    /** @return items rank 1's handler counted (read after {@code quiet()}, which orders its writes before) */
    long itemsReceived() {
        return received.items;
    }

    /** @return items rank 1's dev0 inbox handed to its handler (transport counter) */
    long itemsDelivered() {
        return transports[1].counter(0, TransportCounter.ITEMS_DELIVERED);
    }

    /** @return messages rank 1's dev0 inbox applied (transport counter): its batches, and puts below rendezvous */
    long messagesDelivered() {
        return transports[1].counter(0, TransportCounter.MESSAGES_DELIVERED);
    }

    /** Closes both ranks at once (host transports, groups, transports, meshes); idempotent. */
    @Override
    public void close() {
        try {
            both(rank -> CloseHelper.closeAll(hostTransports[rank], groups[rank], transports[rank],
                putTargets[rank], meshes[rank]));
        } catch (final RuntimeException e) {
            throw e;
        } catch (final Exception e) {
            throw new IllegalStateException("the ranks did not close cleanly", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private void both(final RankStep step) throws Exception {
        final List<Future<Void>> runs = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            final int rank = r;
            final Callable<Void> c = () -> {
                step.run(rank);
                return null;
            };
            runs.add(pool.submit(c));
        }
        Exception first = null;
        for (final Future<Void> run : runs) {
            try {
                run.get(BOUND_SECONDS, TimeUnit.SECONDS);
            } catch (final ExecutionException e) {
                first = first != null ? first : e.getCause() instanceof Exception ? (Exception)e.getCause() : e;
            } catch (final TimeoutException e) {
                run.cancel(true);
                first = first != null ? first : new IllegalStateException("a rank's step took more than "
                    + BOUND_SECONDS + " s", e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** One rank's part of a collective step. */
    private interface RankStep {
        void run(int rank) throws Exception;
    }
}
