package dev.overlap.bench.transport;

import dev.overlap.bench.report.Quick;
import dev.overlap.core.GlobalAddress;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Inbox;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> the code cost of the inbox ring path (ns per operation), sender and receiver on one
 * thread: {@value #OPS} one-way operations from an endpoint on dev0 into dev1's inbox ring
 * ({@link DirectPolicy#NEVER}), then one {@link Inbox#drain()} that applies them all.
 *
 * <p>{@link RemoteOpsBenchmark} with {@code policy = NEVER} measures the same path with a second thread draining the
 * ring, which is what users run; on 2 cores its forks fall into two or three scheduling modes whatever the code.
 * This benchmark has no second thread, so it measures the instructions of both sides (the send, the ring's claim
 * and commit, the drain's dispatch and the apply) with nothing to wait for: the figure to compare when the code of
 * the ring path changes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Thread)
@Quick(warmupTime = "300ms", iterations = 2, time = "300ms")
public class RingPathBenchmark {
    /** Operations sent before each drain (well under the ring's capacity and the drain's limit). */
    static final int OPS = 64;

    private Transport transport;
    private Endpoint endpoint;
    private Inbox inbox;
    private long value;

    @Setup(Level.Trial)
    public void setUp() {
        final UnsafeBuffer m0 = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1 << 20, 4096));
        final UnsafeBuffer m1 = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1 << 20, 4096));
        transport = Transport.builder().devices(2).memories(m0, m1).ringCapacity(1 << 18).maxEndpoints(2)
            .directPolicy(DirectPolicy.NEVER).build();
        endpoint = transport.newEndpoint(0);
        inbox = transport.inbox(1);
        value = GlobalAddress.of(1, 0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        transport.close();
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public int put8() {
        for (int i = 0; i < OPS; i++) {
            endpoint.putLong(value, i);
        }
        return inbox.drain();
    }


    @Benchmark
    @OperationsPerInvocation(OPS)
    public int atomicAdd() {
        for (int i = 0; i < OPS; i++) {
            endpoint.atomic(RemoteAtomic.LONG_ADD, value, 1);
        }
        return inbox.drain();
    }
}
