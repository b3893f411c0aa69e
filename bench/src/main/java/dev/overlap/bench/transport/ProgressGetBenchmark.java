package dev.overlap.bench.transport;

import dev.overlap.bench.report.Quick;
import dev.overlap.core.GlobalAddress;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Transport;
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
 * <b>What is measured:</b> the UPC helper-thread experiment (Fig. 8 of the UPC runtime paper): latency (us, sampled;
 * read the median) of a blocking 8-byte remote get from dev0 against dev1 while dev1's only worker is busy in a
 * 10 ms compute phase of its persistent kernel. Between phases the kernel drains dev1's inbox
 * ({@code Endpoint.poll()}); during a phase it does not. Gets go through the ring ({@link DirectPolicy#NEVER}, as
 * between processes), so someone on dev1's side must apply them:
 * <ul>
 *   <li>{@code progressThread = false}: only the owner, after its phase: latency ~ the rest of the 10 ms kernel;</li>
 *   <li>{@code progressThread = true}: the transport's progress thread (helps an inbox whose consumer position
 *       stood still for 20 us; backoff idle, parking up to 50 us): latency ~ transfer time, target well under
 *       10 ms.</li>
 * </ul>
 * Each invocation's setup starts a compute phase and waits until dev1 is inside it; the get is then timed. Threads:
 * dev1's worker (spinning), the JMH thread (its wait uses the transport's default backoff idle strategy, which yields
 * and parks), the progress thread when enabled.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Quick(warmupTime = "500ms", time = "500ms")
public class ProgressGetBenchmark {
    static final long PHASE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** control[]: phases requested by the benchmark, started and finished by dev1's kernel. */
    private static final int REQUESTED = 0;
    private static final int STARTED = 1;
    private static final int FINISHED = 2;

    /** Whether the transport runs its progress (helper) thread. */
    @Param({"false", "true"})
    public boolean progressThread;

    private Mesh mesh;
    private Transport transport;
    private Endpoint requester;
    private LongArray control;
    private KernelLaunch owner;
    private long address;

    @Setup(Level.Trial)
    public void setUp() {
        mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20).build();
        transport = Transport.builder().mesh(mesh).ringCapacity(1 << 16).directPolicy(DirectPolicy.NEVER)
            .progressThread(progressThread).helpAfter(20, TimeUnit.MICROSECONDS).build();
        requester = transport.newEndpoint(0);
        final LongArray data = mesh.device(1).allocateLongs(8);
        data.set(0, 42);
        address = GlobalAddress.of(1, data.offset());
        control = mesh.device(1).allocateLongs(3);
        owner = mesh.device(1).launchPersistent(ctx -> {
            final long phase = control.getVolatile(REQUESTED);
            if (phase != control.getVolatile(FINISHED)) {
                control.setVolatile(STARTED, phase);
                final long end = System.nanoTime() + PHASE_NANOS;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait(); // the "kernel": no inbox draining here
                }
                control.setVolatile(FINISHED, phase);
                return 1;
            }
            return transport.endpoint(ctx).poll();
        });
    }

    @Setup(Level.Invocation)
    public void startPhase() {
        final long previous = control.getVolatile(REQUESTED);
        while (control.getVolatile(FINISHED) != previous) {
            Thread.yield(); // the previous phase is still running
        }
        control.setVolatile(REQUESTED, previous + 1);
        while (control.getVolatile(STARTED) != previous + 1) {
            Thread.yield();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        owner.stop();
        owner.join();
        transport.close();
        mesh.close();
    }

    /** Blocking get of 8 bytes from dev1 while dev1 computes. */
    @Benchmark
    public long getWhileOwnerBusy() {
        return requester.getLong(address);
    }
}
