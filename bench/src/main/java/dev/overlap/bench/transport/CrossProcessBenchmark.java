package dev.overlap.bench.transport;

import dev.overlap.bench.report.ParamBaseline;
import dev.overlap.bench.report.Quick;
import dev.overlap.core.DeviceRegion;
import dev.overlap.core.GlobalAddress;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.WorldConfig;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.overlap.bench.transport.TransportBenchSupport.ITEMS;

/**
 * <b>What is measured:</b> the transport between two devices whose processes differ, against the same devices in one
 * JVM ({@code placement}), at batch sizes from 64 B to 1 MiB (Atos Fig. 4's trade-off on a real process boundary):
 * <ul>
 *   <li>{@link #push}: remote push throughput, items/s: the benchmark thread offers 4-byte items one by one to an
 *       aggregator of {@code batchBytes} for a queue on dev1 ({@code IntAggregator.offerBlocking}: one
 *       {@code tryClaim}/{@code commit} per batch into dev1's inbox ring); dev1's inbox is drained by its transport's
 *       progress thread, whose handler counts the items in place;</li>
 *   <li>{@link #put}: put bandwidth, puts of {@code batchBytes} per second: {@code Endpoint.put} of a buffer into
 *       dev1's memory (below the 4 KiB rendezvous threshold a ring message applied by dev1's progress thread, from it a
 *       direct copy into dev1's memory after an ordering fence).</li>
 * </ul>
 * {@code IN_JVM}: one mesh of 2 devices in the benchmark's JVM, the progress thread draining dev1. {@code SHARED_MEMORY}:
 * a mesh across 2 processes on this host ({@link WorldConfig}): the benchmark's JVM is rank 0 (dev0, the sender), a
 * child JVM ({@link CrossProcessPeer}) is rank 1 (dev1, its progress thread the receiver); device memory and inbox
 * rings are files under {@code /dev/shm}. The same code paths on both: only the memory is mapped from files and the
 * receiver runs in another process. Busy threads: the sender and the receiving progress thread (2 on 2 cores).
 *
 * <p><b>Score:</b> ops/s (items/s for push, puts/s for put; bytes/s = puts/s x {@code batchBytes}). Teardown checks
 * that every item offered arrived (counted by the receiver, in the other process for {@code SHARED_MEMORY}). Idle:
 * {@link TransportBenchSupport#spinThenYield()} for the sender and both progress threads.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@ParamBaseline(param = "placement", value = "IN_JVM", name = "vs in-JVM")
@Quick(params = "batchBytes=64,65536", warmupTime = "300ms", time = "300ms", setupSeconds = 1)
public class CrossProcessBenchmark {
    static final int QUEUE = 0;
    static final int MEMORY = 32 << 20;

    /** Where dev1 lives: in this JVM, or in a second process sharing memory with this one. */
    @Param({"IN_JVM", "SHARED_MEMORY"})
    public String placement;

    /** Batch message size of push, and put size, in bytes. */
    @Param({"64", "512", "4096", "65536", "1048576"})
    public int batchBytes;

    private Path dir;
    private Process peer;
    private Mesh mesh;
    private SymmetricArray<LongArray> stats;
    private DeviceRegion putTarget;
    private Transport transport;
    private Endpoint endpoint;
    private IntAggregator aggregator;
    private UnsafeBuffer source;
    private long target;
    private final TransportBenchSupport.CountHandler received = new TransportBenchSupport.CountHandler();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        final int ring = TransportBenchSupport.ringFor(batchBytes);
        final Mesh.Builder b = Mesh.builder().name("xp-r0").devices(2).threadsPerDevice(1).memoryPerDevice(MEMORY);
        if (placement.equals("SHARED_MEMORY")) {
            final Path base = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
                : Path.of(System.getProperty("java.io.tmpdir"));
            dir = base.resolve("overlap-bench-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
            peer = CrossProcessPeer.start(dir, batchBytes, ring);
            b.world(WorldConfig.sharedMemory(dir, 2, 0).joinTimeout(60, TimeUnit.SECONDS).build());
        }
        mesh = b.build();
        stats = mesh.allocateLongs(8); // collective: rank 1 reports what it received here
        putTarget = mesh.allocateSymmetric(batchBytes, 64); // collective: what put writes into, on dev1
        transport = CrossProcessPeer.transport(mesh, ring);
        for (int d = 0; d < 2; d++) {
            transport.registerHandler(d, QUEUE, ItemType.INT, received);
        }
        mesh.world().barrier(); // both ranks' handlers are registered
        endpoint = transport.newEndpoint(0);
        aggregator = endpoint.intAggregator(1, QUEUE, AggregatorConfig.batched(batchBytes, Long.MAX_VALUE));
        source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(batchBytes, 64));
        target = GlobalAddress.of(1, putTarget.offset());
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void push() {
        final IntAggregator a = aggregator;
        for (int i = 0; i < ITEMS; i++) {
            a.offerBlocking(i);
        }
    }

    @Benchmark
    public void put() {
        endpoint.put(target, source, 0, batchBytes);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        aggregator.flush();
        endpoint.quiet(); // every item offered is applied (in dev1's process too)
        final long enqueued = endpoint.counter(TransportCounter.ITEMS_ENQUEUED);
        final long delivered;
        if (peer != null) {
            mesh.world().barrier(); // rank 1 writes its count
            mesh.world().barrier();
            delivered = stats.on(1).getVolatile(0);
        } else {
            delivered = received.items; // published by the drains that quiet() waited for
        }
        transport.close(); // collective
        putTarget.close();
        stats.close();
        mesh.close();
        if (peer != null && !peer.waitFor(60, TimeUnit.SECONDS)) {
            peer.destroyForcibly();
            throw new IllegalStateException("the peer process did not end");
        }
        if (delivered != enqueued) {
            throw new IllegalStateException("lost items: enqueued " + enqueued + ", delivered " + delivered);
        }
        if (peer != null && peer.exitValue() != 0) {
            throw new IllegalStateException("the peer process failed (exit " + peer.exitValue() + ")");
        }
    }

    /** @return the JVM arguments the peer starts with (the Agrona export; a small heap) */
    static List<String> peerJvmArgs() {
        return List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx256m");
    }
}
