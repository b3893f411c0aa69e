package dev.overlap.hosts;

import dev.overlap.core.Mesh;
import dev.overlap.testing.UdpPorts;
import dev.overlap.transport.Transport;
import org.agrona.CloseHelper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * For the tests: ranks as threads of this JVM, rank r on 127.0.0.(r+1), each with its own mesh, transport, host
 * group and host transport (built concurrently, as they are collective), on the media driver whose directory the
 * test gives. Every wait is bounded.
 */
final class HostCluster implements AutoCloseable {
    static final long BOUND_SECONDS = 60;
    static final int DEVICES = 2;
    static final int MEMORY = 1 << 20;

    final HostFile hosts;
    final List<HostGroup> groups = new ArrayList<>();
    final List<Mesh> meshes = new ArrayList<>();
    final List<Transport> transports = new ArrayList<>();
    final List<HostTransport> hostTransports = new ArrayList<>();
    final ExecutorService pool;

    /**
     * @param setup registers the handlers of one rank's transport (called before its host transport is built)
     */
    HostCluster(final Path driverDir, final int ranks, final boolean progressThread, final Consumer<Transport> setup)
        throws Exception {
        final List<String> lines = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            final String host = "127.0.0." + (r + 1);
            lines.add(r + " " + host + " " + UdpPorts.free(host));
        }
        hosts = HostFile.parse("test-hosts", lines);
        pool = Executors.newFixedThreadPool(ranks);
        final List<Future<HostGroup>> joins = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            final int rank = r;
            joins.add(pool.submit(() -> HostGroup.builder(hosts, rank).aeronDirectory(driverDir)
                .peerTimeout(3, TimeUnit.SECONDS).join()));
        }
        try {
            for (final Future<HostGroup> join : joins) {
                groups.add(join.get(BOUND_SECONDS, TimeUnit.SECONDS));
            }
            for (int r = 0; r < ranks; r++) {
                final Mesh mesh = Mesh.builder().devices(DEVICES).threadsPerDevice(1).memoryPerDevice(MEMORY)
                    .name("r" + r).build();
                meshes.add(mesh);
                final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 16)
                    .progressThread(progressThread).build();
                transports.add(t);
                setup.accept(t);
            }
            final List<Future<HostTransport>> builds = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                final int rank = r;
                builds.add(pool.submit(() -> HostTransport.builder(groups.get(rank), transports.get(rank)).build()));
            }
            for (final Future<HostTransport> b : builds) {
                hostTransports.add(b.get(BOUND_SECONDS, TimeUnit.SECONDS));
            }
        } catch (final Exception e) {
            close();
            throw e;
        }
    }

    HostTransport rank(final int r) {
        return hostTransports.get(r);
    }

    /** Runs {@code body} on every rank at once (its rank as argument); returns what each threw (null: nothing). */
    List<Throwable> onEveryRank(final RankBody body) throws Exception {
        return onEveryRank(pool, groups.size(), body);
    }

    /**
     * Runs {@code body} for ranks 0..{@code ranks}-1 at once on {@code pool}, each bounded by
     * {@link #BOUND_SECONDS}.
     *
     * @return what each threw (null: nothing), by rank
     */
    static List<Throwable> onEveryRank(final ExecutorService pool, final int ranks, final RankBody body)
        throws Exception {
        final List<Future<?>> runs = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            final int rank = r;
            runs.add(pool.submit(() -> {
                body.run(rank);
                return null;
            }));
        }
        final List<Throwable> thrown = new ArrayList<>();
        for (final Future<?> run : runs) {
            try {
                run.get(BOUND_SECONDS, TimeUnit.SECONDS);
                thrown.add(null);
            } catch (final ExecutionException e) {
                thrown.add(e.getCause());
            }
        }
        return thrown;
    }

    /** A rank's part of a test. */
    interface RankBody {
        void run(int rank) throws Exception;
    }

    /** Closes every rank concurrently (the closes of host transports and groups meet the other ranks). */
    @Override
    public void close() throws ExecutionException, TimeoutException {
        final List<Future<?>> closes = new ArrayList<>();
        for (int r = 0; r < groups.size(); r++) {
            final int rank = r;
            closes.add(pool.submit(() -> {
                CloseHelper.quietCloseAll(rank < hostTransports.size() ? hostTransports.get(rank) : null,
                    groups.get(rank), rank < transports.size() ? transports.get(rank) : null,
                    rank < meshes.size() ? meshes.get(rank) : null);
                return null;
            }));
        }
        try {
            for (final Future<?> c : closes) {
                c.get(BOUND_SECONDS, TimeUnit.SECONDS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the ranks close", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
