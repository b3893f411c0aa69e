package dev.overlap.bench.transport;

import dev.overlap.bench.report.BusyThreads;
import dev.overlap.bench.report.ByteSize;
import dev.overlap.bench.report.ParamBaseline;
import dev.overlap.bench.report.Quick;
import dev.overlap.core.World;
import dev.overlap.hosts.HostEndpoint;
import dev.overlap.transport.ItemType;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> the transport across hosts ({@code HostTransport} over Aeron UDP) against raw Aeron, the
 * engine it runs on, at message sizes from 64 B to 1 MiB (issue 18: Overlap's remote push throughput over UDP at
 * least 80% of raw Aeron's at the same message size). One operation is one message of {@code batch} bytes, the
 * length Aeron carries, so ops/s is messages/s and bytes/s = ops/s x {@code batch} in every row:
 * <ul>
 *   <li>{@link #push}: {@code OVERLAP_UDP}: rank 0's {@code HostEndpoint.offerBlocking} of one batch of
 *       ({@code batch} - 32) / 4 {@code int} items (the message's 32-byte header included, {@code batch} bytes) to
 *       the queue of rank 1's device; rank 1's host transport receiver claims it into the device's inbox ring and,
 *       when the ring is full or it is idle, drains it, whose handler counts the items (no progress thread: the
 *       receiver is the UPC helper). Items/s = ops/s x ({@code batch} - 32) / 4;</li>
 *   <li>{@link #put}: {@code OVERLAP_UDP}: {@code HostEndpoint.put} of ({@code batch} - 32) bytes into rank 1's
 *       device memory (one message of {@code batch} bytes), applied by the receiver through its forwarding endpoint
 *       (a ring message below the local rendezvous threshold, a direct copy from it);</li>
 *   <li>{@code RAW_AERON_UDP} and {@code RAW_AERON_IPC}, both methods: one message of {@code batch} bytes copied
 *       from a buffer into an {@code ExclusivePublication} ({@code tryClaim} when it fits a frame, {@code offer}
 *       otherwise), polled by a subscriber thread that reassembles and counts messages and bytes
 *       ({@link RawAeronPair}). UDP goes to 127.0.0.2 as rank 1's host transport does; IPC is the engine's ceiling on
 *       one host. {@code RAW_AERON_UDP_BOTH_WAYS} is a control, not the target's baseline: raw UDP with an idle
 *       channel back to 127.0.0.1, so that the one media driver has the shape it has under the two ranks (two
 *       receiving and two sending endpoints, the reverse one for the receiver's reports): what of Overlap's distance
 *       to raw UDP the driver's shape explains.</li>
 * </ul>
 * Both ranks (or the raw publication and subscription) are in the benchmark's JVM on one embedded media driver
 * ({@code ThreadingMode.SHARED}, sparse terms, its directory under {@code /dev/shm}, deleted by the trial's
 * teardown), with the same term length: 1 MiB, or 8 x {@code batch} when larger (a message is at most an eighth of a
 * term). Every wait on back-pressure, the senders' and the receivers', idles with {@link #hostIdle()}, the host
 * transport's own strategy. Busy threads: the sender, the driver's and the receiver (Overlap's receiver or the raw
 * subscriber): 3 on 2 cores, so every row is oversubscribed by one thread (rank 0's receiver and both groups'
 * agents mostly park).
 *
 * <p><b>Checks:</b> after every iteration everything sent must have arrived: for Overlap, after the endpoint's
 * {@code quiet()} (everything sent has been applied), the items rank 1's handler counted, and the items and batches
 * its inbox delivered, against those sent; for puts, the last put's number in the target (the stream applies puts
 * once each, in order); for raw Aeron the subscriber's message and byte counts (waited for, at most 60 s). A run
 * that lost or duplicated a message fails instead of reporting a figure.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@ParamBaseline(param = "system", value = "RAW_AERON_UDP", name = "vs raw UDP")
@BusyThreads("3")
// the quick report: one fragmented size, Overlap against its raw peer (the suite's 10-minute budget is nearly spent)
@Quick(params = {"batch=4096", "system=OVERLAP_UDP,RAW_AERON_UDP"}, warmupTime = "200ms", time = "200ms",
    setupSeconds = 0.5)
public class HostTransportBenchmark {
    /** The host transport's message header: a batch's items and a put's bytes start here. */
    static final int HEADER = 32;
    private static final long CHECK_SECONDS = 60;
    /** System property: when true, each trial's teardown prints the media driver's system counters (loss, NAKs). */
    static final String DRIVER_COUNTERS = "overlap.bench.driverCounters";

    /** What carries the messages. */
    @Param({"OVERLAP_UDP", "RAW_AERON_UDP", "RAW_AERON_UDP_BOTH_WAYS", "RAW_AERON_IPC"})
    public String system;

    /** Message size in bytes, as Aeron carries it (Overlap's header included). */
    @ByteSize
    @Param({"64", "512", "4096", "65536", "1048576"})
    public int batch;

    private Path driverDir;
    private MediaDriver driver;
    private HostPair hosts;
    private RawAeronPair raw;
    private HostEndpoint endpoint;
    private long putTarget;
    private UnsafeBuffer source;
    private int items;
    private long pushes;
    private long puts;

    /**
     * The idle strategy of every wait here, the host transport's own: 64 spins, 64 yields, then parks from 1 us
     * doubling up to 100 us.
     *
     * @return a new strategy (one per thread)
     */
    static IdleStrategy hostIdle() {
        return new BackoffIdleStrategy(64, 64, 1_000, 100_000);
    }

    /** @return the term length for messages of {@code batch} bytes: 1 MiB, or 8 x {@code batch} when larger */
    static int termFor(final int batch) {
        return Math.max(1 << 20, Integer.highestOneBit(8 * batch - 1) << 1);
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        if (batch < 2 * HEADER || batch % 8 != 0) {
            throw new IllegalArgumentException("batch must be a multiple of 8 of at least " + 2 * HEADER + " bytes, was "
                + batch);
        }
        final Path shm = Path.of("/dev/shm");
        driverDir = (Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty(
            "java.io.tmpdir"))).resolve("overlap-hosts-bench-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
            .termBufferSparseFile(true).warnIfDirectoryExists(false));
        source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(batch, 64));
        for (int i = 0; i < batch; i += 4) {
            source.putInt(i, i);
        }
        items = (batch - HEADER) / Integer.BYTES;
        final int term = termFor(batch);
        try {
            switch (system) {
                case "OVERLAP_UDP":
                    final int ring = TransportBenchSupport.ringFor(batch);
                    // device memory: the inbox ring (with its trailer, aligned) and the put target
                    hosts = new HostPair(driverDir, term, ring, 2 * ring + 2 * batch + (1 << 20), batch);
                    endpoint = hosts.endpoint();
                    putTarget = hosts.putTarget();
                    if (items > endpoint.maxBatchItems(ItemType.INT)) {
                        throw new IllegalStateException("a batch of " + items + " items does not fit one message ("
                            + endpoint.maxBatchItems(ItemType.INT) + "): the rows would not compare equal messages");
                    }
                    break;
                case "RAW_AERON_UDP":
                case "RAW_AERON_UDP_BOTH_WAYS":
                case "RAW_AERON_IPC":
                    raw = new RawAeronPair(driverDir, RawAeronPair.Kind.valueOf(system.substring("RAW_AERON_"
                        .length())), term);
                    if (batch > raw.maxMessage()) {
                        throw new IllegalStateException("a message of " + batch + " bytes is larger than the raw "
                            + "publication carries (" + raw.maxMessage() + ")");
                    }
                    break;
                default:
                    throw new IllegalArgumentException("unknown system " + system);
            }
        } catch (final Exception | Error e) {
            tearDown();
            throw e;
        }
    }

    @Benchmark
    public void push() {
        if (endpoint != null) {
            endpoint.offerBlocking(1, 0, HostPair.QUEUE, ItemType.INT, source, 0, items);
            pushes++;
        } else {
            raw.send(source, batch);
        }
    }

    @Benchmark
    public void put() {
        if (endpoint != null) {
            source.putLong(0, ++puts); // the check finds the last put's number in the target
            endpoint.put(1, putTarget, source, 0, batch - HEADER);
        } else {
            raw.send(source, batch);
        }
    }

    /**
     * Everything sent in the iteration must have arrived, exactly once; if not, the trial's resources are released
     * here (JMH does not run the trial's teardown after a failed iteration) and the run fails.
     */
    @TearDown(Level.Iteration)
    public void check() throws Exception {
        try {
            if (endpoint == null) {
                raw.awaitReceived(batch, CHECK_SECONDS);
            } else {
                checkOverlap();
            }
        } catch (final RuntimeException | Error e) {
            try {
                tearDown();
            } catch (final Exception | Error t) {
                e.addSuppressed(t);
            }
            throw e;
        }
    }

    private void checkOverlap() {
        if (!endpoint.quiet(CHECK_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("rank 1 did not apply everything rank 0 sent within " + CHECK_SECONDS
                + " s");
        }
        final long expected = pushes * items;
        if (hosts.itemsReceived() != expected || hosts.itemsDelivered() != expected
            || pushes > 0 && hosts.messagesDelivered() != pushes) {
            throw new IllegalStateException("batches lost or duplicated: sent " + pushes + " of " + items + " items, "
                + "rank 1's handler counted " + hosts.itemsReceived() + " items, its inbox delivered "
                + hosts.itemsDelivered() + " items in " + hosts.messagesDelivered() + " batches");
        }
        if (puts > 0 && hosts.putTargetFirstLong() != puts) {
            throw new IllegalStateException("puts lost: sent " + puts + ", the target holds put number "
                + hosts.putTargetFirstLong());
        }
    }

    /** Prints the driver's system counters that are not zero (what the driver did: frames, NAKs, retransmits). */
    private void printDriverCounters() {
        try (io.aeron.Aeron a = io.aeron.Aeron.connect(new io.aeron.Aeron.Context()
            .aeronDirectoryName(driverDir.toString()))) {
            final StringBuilder sb = new StringBuilder("driver counters, " + system + " " + batch + " B:");
            final org.agrona.concurrent.status.CountersReader counters = a.countersReader();
            counters.forEach((int id, int typeId, org.agrona.DirectBuffer key, String label) -> {
                final long value = counters.getCounterValue(id);
                if (typeId == io.aeron.AeronCounters.DRIVER_SYSTEM_COUNTER_TYPE_ID && value != 0) {
                    sb.append("\n  ").append(label).append(" = ").append(value);
                }
            });
            System.out.println(sb);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        if (driver != null && Boolean.getBoolean(DRIVER_COUNTERS)) {
            printDriverCounters();
        }
        try {
            if (hosts != null) {
                hosts.close();
            }
            if (raw != null) {
                raw.close();
            }
        } finally {
            hosts = null;
            raw = null;
            endpoint = null;
            if (driver != null) {
                driver.close();
                driver = null;
            }
            if (driverDir != null) {
                World.deleteDirectory(driverDir);
                if (Files.exists(driverDir)) {
                    throw new IOException("the media driver's directory " + driverDir + " is still there");
                }
            }
        }
    }
}
