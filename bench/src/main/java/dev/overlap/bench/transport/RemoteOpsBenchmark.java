package dev.overlap.bench.transport;

import dev.overlap.bench.transport.TransportBenchSupport.Service;
import dev.overlap.core.GlobalAddress;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import dev.overlap.bench.report.Quick;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> time per remote operation (ns) from an endpoint on dev0 to dev1's memory, through the
 * ring ({@code policy = NEVER}: the operation is a message that dev1's owner thread applies) or directly in one JVM
 * ({@code WHEN_ORDERED}: applied on the caller's thread when nothing of its is pending in dev1's ring; the default):
 * <ul>
 *   <li>{@link #put8}, {@link #put256}: small puts (ring: returns once copied into the ring, back-pressured by the
 *       owner's drain rate, so this is the sustained cost per put);</li>
 *   <li>{@link #put65536}: above the 4 KiB rendezvous threshold: always a direct copy (after an ordering fence);</li>
 *   <li>{@link #atomicAdd}: non-fetching remote add; {@link #fetchAdd}: fetching add (a round trip through the ring
 *       with NEVER); {@link #getLong}: blocking 8-byte get (a round trip with NEVER).</li>
 * </ul>
 * dev1's owner is a background thread that drains its inbox; every wait uses
 * {@link TransportBenchSupport#spinThenYield()}; standalone transport, 1 MiB memories, 256 KiB rings.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Quick(warmupTime = "300ms", time = "300ms")
public class RemoteOpsBenchmark {
    /** Whether small operations may bypass the ring. */
    @Param({"NEVER", "WHEN_ORDERED"})
    public DirectPolicy policy;

    private Transport transport;
    private Endpoint endpoint;
    private Service owner;
    private UnsafeBuffer source;
    private long target;
    private long value;

    @Setup(Level.Trial)
    public void setUp() {
        final UnsafeBuffer m0 = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1 << 20, 4096));
        final UnsafeBuffer m1 = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1 << 20, 4096));
        transport = Transport.builder().devices(2).memories(m0, m1).ringCapacity(1 << 18).maxEndpoints(2).idleStrategy(TransportBenchSupport::spinThenYield)
            .directPolicy(policy).build();
        endpoint = transport.newEndpoint(0);
        source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1 << 16, 64));
        target = GlobalAddress.of(1, 4096);
        value = GlobalAddress.of(1, 0);
        owner = new Service("dev1-owner", transport.inbox(1)::drain);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        endpoint.quiet();
        owner.close();
        transport.close();
    }

    @Benchmark
    public void put8() {
        endpoint.putLong(value, 42);
    }

    @Benchmark
    public void put256() {
        endpoint.put(target, source, 0, 256);
    }

    @Benchmark
    public void put65536() {
        endpoint.put(target, source, 0, 1 << 16);
    }

    @Benchmark
    public void atomicAdd() {
        endpoint.atomic(RemoteAtomic.LONG_ADD, value, 1);
    }

    @Benchmark
    public long fetchAdd() {
        return endpoint.fetch(RemoteAtomic.LONG_ADD, value, 1);
    }

    @Benchmark
    public long getLong() {
        return endpoint.getLong(value);
    }
}
