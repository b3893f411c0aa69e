package dev.overlap.hosts;

import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.Mesh;
import dev.overlap.core.OfferResult;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.LongArray;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport across hosts with ranks as threads of this JVM on 127.0.0.1 and 127.0.0.2 (one media driver the test
 * starts): pushes delivered exactly once and in order (batches that fit a frame and fragmented ones, split ones),
 * Aeron back-pressure seen by {@code tryOffer} and the timed forms with nothing lost, atomics, puts and gets with
 * {@code quiet()}, a peer that dies, and misuse. Real processes: {@code HostTransportAcrossProcessesTest}.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostTransportTest {
    private static final int QUEUE = 3;
    private static final int LONG_QUEUE = 4;
    private static TestMediaDriver driver;
    private static Path driverDir;

    @BeforeAll
    static void startDriver() throws Exception {
        driver = TestMediaDriver.start("overlap-hosts-transport-test-");
        driverDir = driver.dir;
    }

    @AfterAll
    static void stopDriver() {
        driver.close();
    }

    private static void assertNoneThrew(final List<Throwable> thrown) {
        for (final Throwable t : thrown) {
            if (t != null) {
                throw new AssertionError("a rank threw", t);
            }
        }
    }

    /** Waits for {@code latch} inside a handler (the test's way of holding a drain), keeping an interrupt. */
    private static void await(final CountDownLatch latch) {
        try {
            if (!latch.await(HostCluster.BOUND_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the handler");
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Items are (sender rank, device, sequence) packed into an int: 1 bit rank, 1 bit device, 30 bits sequence. */
    private static int item(final int rank, final int device, final int seq) {
        return rank << 31 | device << 30 | seq;
    }

    @Test
    void pushesArriveExactlyOnceInOrderInBothDirections() throws Exception {
        final int perDevice = 60_000;
        // by receiving rank and device: the next sequence expected from the other rank (in order), and errors
        final AtomicIntegerArray next = new AtomicIntegerArray(4);
        final AtomicLong longSum = new AtomicLong();
        final AtomicReference<String> wrong = new AtomicReference<>();
        try (HostCluster c = new HostCluster(driverDir, 2, true, t -> {
            final int self = t.mesh().name().equals("r0") ? 0 : 1;
            for (int d = 0; d < HostCluster.DEVICES; d++) {
                final int dev = d;
                t.registerHandler(d, QUEUE, ItemType.INT, (queue, sender, items, offset, count) -> {
                    for (int i = 0; i < count; i++) {
                        final int v = items.getInt(offset + 4 * i);
                        final int seq = v & ((1 << 30) - 1);
                        final int expected = next.get(self * 2 + dev);
                        if ((v >>> 31) != 1 - self || ((v >>> 30) & 1) != dev || seq != expected) {
                            wrong.compareAndSet(null, "rank " + self + " dev" + dev + " got " + Integer.toHexString(v)
                                + ", expected sequence " + expected);
                        }
                        next.set(self * 2 + dev, seq + 1);
                    }
                });
                t.registerHandler(d, LONG_QUEUE, ItemType.LONG, (queue, sender, items, offset, count) -> {
                    for (int i = 0; i < count; i++) {
                        longSum.addAndGet(items.getLong(offset + 8 * i));
                    }
                });
            }
        })) {
            assertNoneThrew(c.onEveryRank(r -> {
                final HostEndpoint ep = c.rank(r).newEndpoint(0);
                final int to = 1 - r;
                final UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(4 * 4096));
                final int[] sizes = {1, 7, 300, 1000, 4096}; // within a frame, fragmented, split into several
                int seq0 = 0;
                int seq1 = 0;
                int round = 0;
                while (seq0 < perDevice || seq1 < perDevice) {
                    final int dev = round & 1;
                    final int n = Math.min(sizes[round++ % sizes.length], perDevice - (dev == 0 ? seq0 : seq1));
                    if (n == 0) {
                        continue;
                    }
                    for (int i = 0; i < n; i++) {
                        src.putInt(4 * i, item(r, dev, (dev == 0 ? seq0 : seq1) + i));
                    }
                    if (n <= ep.maxBatchItems(ItemType.INT) && (round & 2) == 0) {
                        int result;
                        while ((result = ep.tryOffer(to, dev, QUEUE, ItemType.INT, src, 0, n)) < 0) {
                            assertTrue(result == OfferResult.BACK_PRESSURED || result == OfferResult.ADMIN_ACTION,
                                "tryOffer answered " + result);
                            Thread.onSpinWait();
                        }
                        assertEquals(n, result);
                    } else {
                        ep.offerBlocking(to, dev, QUEUE, ItemType.INT, src, 0, n);
                    }
                    if (dev == 0) {
                        seq0 += n;
                    } else {
                        seq1 += n;
                    }
                }
                final UnsafeBuffer longs = new UnsafeBuffer(ByteBuffer.allocateDirect(8 * 3000));
                for (int i = 0; i < 3000; i++) {
                    longs.putLong(8 * i, (1L << 40) + i);
                }
                ep.offerBlocking(to, 1, LONG_QUEUE, ItemType.LONG, longs, 0, 3000);
                ep.quiet();
                c.groups.get(r).barrier(); // both ranks' quiet: everything both sent is applied
            }));
            assertNull(wrong.get());
            for (int i = 0; i < 4; i++) {
                assertEquals(perDevice, next.get(i), "items delivered to rank " + i / 2 + " dev" + i % 2);
            }
            assertEquals(2 * (3000L * (1L << 40) + 2999L * 3000 / 2), longSum.get());
        }
    }

    @Test
    void backPressureIsReportedAndNothingIsLostOrDuplicated() throws Exception {
        final CountDownLatch inHandler = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicIntegerArray seen = new AtomicIntegerArray(200_000);
        final AtomicReference<String> wrong = new AtomicReference<>();
        // no progress thread: rank 1's inbox is drained by its receiver, which the first batch holds up; from then on
        // rank 1 takes nothing off the stream, so once Aeron's window is used up the stream stays back-pressured
        try (HostCluster c = new HostCluster(driverDir, 2, false, t -> t.registerHandler(0, QUEUE, ItemType.INT,
            (queue, sender, items, offset, count) -> {
                inHandler.countDown();
                await(release);
                for (int i = 0; i < count; i++) {
                    if (seen.getAndIncrement(items.getInt(offset + 4 * i)) != 0) {
                        wrong.compareAndSet(null, "item " + items.getInt(offset + 4 * i) + " delivered twice");
                    }
                }
            }))) {
            final HostEndpoint ep = c.rank(0).newEndpoint(0);
            final UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(4 * 256));
            int sent = 0;
            int backPressured = 0;
            while (backPressured == 0 || inHandler.getCount() > 0) {
                fill(src, sent);
                final int r = ep.tryOffer(1, 0, QUEUE, ItemType.INT, src, 0, 256);
                if (r == 256) {
                    sent += 256;
                } else {
                    assertTrue(r == OfferResult.BACK_PRESSURED || r == OfferResult.ADMIN_ACTION, "answered " + r);
                    backPressured++;
                }
                assertTrue(sent < seen.length() - 256, "no back-pressure after " + sent + " items");
            }
            int taken;
            do { // Aeron's limit may still move up to the end of the window: a timed offer ends up giving up
                fill(src, sent);
                taken = ep.offer(1, 0, QUEUE, ItemType.INT, src, 0, 256, 10, TimeUnit.MILLISECONDS);
                assertTrue(taken == 0 || taken == 256, "a timed offer of one batch sent " + taken + " items");
                sent += taken;
                assertTrue(sent < seen.length() - 256, "no lasting back-pressure after " + sent + " items");
            } while (taken > 0);
            assertFalse(ep.quiet(10, TimeUnit.MILLISECONDS), "the held-up batches are not applied yet");
            release.countDown();
            ep.offerBlocking(1, 0, QUEUE, ItemType.INT, src, 0, 256);
            sent += 256;
            ep.quiet();
            assertNull(wrong.get());
            for (int i = 0; i < seen.length(); i++) {
                assertEquals(i < sent ? 1 : 0, seen.get(i), "deliveries of item " + i);
            }
        }
    }

    /** Writes items {@code first .. first + 255} into {@code src}. */
    private static void fill(final UnsafeBuffer src, final int first) {
        for (int i = 0; i < 256; i++) {
            src.putInt(4 * i, first + i);
        }
    }

    @Test
    void quietWaitsUntilTheHandlersHaveRun() throws Exception {
        final CountDownLatch inHandler = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicLong handled = new AtomicLong();
        final int held = 5;
        // no progress thread on rank 1: a thread of the test drains dev0's inbox and is held inside the handler of a
        // local batch ahead of the remote one, so the remote batch is delivered into the ring but not applied, and the
        // receiver finds the drain lock taken and cannot apply it either
        try (HostCluster c = new HostCluster(driverDir, 2, false, t -> {
            t.registerHandler(0, held, ItemType.INT, (queue, sender, items, offset, count) -> {
                inHandler.countDown();
                await(release);
            });
            t.registerHandler(0, QUEUE, ItemType.INT, (queue, sender, items, offset, count) -> handled.addAndGet(count));
        })) {
            final Transport t1 = c.transports.get(1);
            final dev.overlap.transport.Endpoint local = t1.newEndpoint(1);
            local.intAggregator(0, held, dev.overlap.transport.AggregatorConfig.eager()).offerBlocking(1);
            final java.util.concurrent.Future<Integer> drainer = c.pool.submit(() -> t1.inbox(0).drain());
            assertTrue(inHandler.await(HostCluster.BOUND_SECONDS, TimeUnit.SECONDS));
            final HostEndpoint ep = c.rank(0).newEndpoint(0);
            try {
                ep.offerBlocking(1, 0, QUEUE, ItemType.INT, new UnsafeBuffer(new byte[4 * 10]), 0, 10);
                assertFalse(ep.quiet(2, TimeUnit.SECONDS), "quiet() returned while the batch waits behind a handler");
                assertEquals(0, handled.get());
            } finally {
                release.countDown(); // the drain ends before the cluster closes, whatever happened
                drainer.get(HostCluster.BOUND_SECONDS, TimeUnit.SECONDS);
            }
            ep.quiet();
            assertEquals(10, handled.get());
        }
    }

    @Test
    void atomicsPutsAndGetsReachTheOtherHostsMemory() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, 2, true, t -> { })) {
            final SymmetricArray<IntArray> ints0 = c.meshes.get(0).allocateInts(64);
            final SymmetricArray<IntArray> ints1 = c.meshes.get(1).allocateInts(64);
            final SymmetricArray<LongArray> longs1 = c.meshes.get(1).allocateLongs(64);
            c.meshes.get(0).allocateLongs(64);
            final Mesh m0 = c.meshes.get(0);
            final int big = 40_000; // several put and get messages
            final long bulk = m0.allocateSymmetric(big, 128).offset();
            c.meshes.get(1).allocateSymmetric(big, 128);
            assertEquals(ints0.offset(), ints1.offset(), "the two meshes allocate alike");
            // both ranks add into rank 1's counter from two endpoints each, and rank 0's too
            assertNoneThrew(c.onEveryRank(r -> {
                final HostTransport ht = c.rank(r);
                final HostEndpoint a = ht.newEndpoint(0);
                final HostEndpoint b = ht.newEndpoint(1);
                final int to = 1 - r;
                final long counter = ints1.on(1).address(5);
                for (int i = 0; i < 500; i++) {
                    a.atomic(to, RemoteAtomic.INT_ADD, counter, 1);
                    b.fetch(to, RemoteAtomic.INT_ADD, counter, 2);
                }
                a.atomic(to, RemoteAtomic.INT_MAX, ints1.on(0).address(1), 1000 + r);
                a.quiet();
                b.quiet();
            }));
            assertEquals(1500, ints0.on(1).get(5));
            assertEquals(1500, ints1.on(1).get(5));
            assertEquals(1000, ints1.on(0).get(1)); // rank 0's max on rank 1
            assertEquals(1001, ints0.on(0).get(1));

            final HostEndpoint ep = c.rank(0).newEndpoint(0);
            final long cell = longs1.on(1).address(3);
            assertEquals(0, ep.fetch(1, RemoteAtomic.LONG_ADD, cell, 40));
            assertEquals(40, ep.fetch(1, RemoteAtomic.LONG_MIN, cell, 7));
            assertTrue(ep.compareAndSetLong(1, cell, 7, 70));
            assertFalse(ep.compareAndSetLong(1, cell, 7, 700));
            assertEquals(70, ep.getLong(1, cell));
            assertTrue(ep.compareAndSetInt(1, ints1.on(0).address(2), 0, -5));
            assertEquals(-5, ep.fetch(1, RemoteAtomic.INT_ADD, ints1.on(0).address(2), 0));

            // a put and a get of the same bytes, in order from one endpoint (the get sees the put)
            final byte[] bytes = new byte[big];
            for (int i = 0; i < big; i++) {
                bytes[i] = (byte)(i * 31 + 7);
            }
            final long at = dev.overlap.core.GlobalAddress.of(1, bulk);
            ep.put(1, at, new UnsafeBuffer(bytes), 0, big);
            final byte[] back = new byte[big];
            ep.get(1, at, new UnsafeBuffer(back), 0, big);
            assertArrayEquals(bytes, back);
            ep.putLong(1, cell, 123_456_789_012L);
            ep.quiet();
            assertEquals(123_456_789_012L, longs1.on(1).get(3));
            final byte[] there = new byte[big];
            c.meshes.get(1).memory(1).buffer().getBytes((int)bulk, there);
            assertArrayEquals(bytes, there);
            // the timed forms, answered in time
            final byte[] some = new byte[16];
            ep.get(1, at, new UnsafeBuffer(some), 0, 16, 30, TimeUnit.SECONDS);
            assertEquals(bytes[15], some[15]);
            assertEquals(123_456_789_012L, ep.fetch(1, RemoteAtomic.LONG_MAX, cell, 0, 30, TimeUnit.SECONDS));
        }
    }

    @Test
    void aPeerThatDiesIsReportedByName() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, 2, true, t -> t.registerHandler(0, QUEUE, ItemType.INT,
            (queue, sender, items, offset, count) -> { }))) {
            final HostEndpoint ep = c.rank(0).newEndpoint(0);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[4 * 64]);
            ep.offerBlocking(1, 0, QUEUE, ItemType.INT, src, 0, 64);
            ep.quiet();
            c.groups.get(1).abandonForTest(); // rank 1 ends as a crash would: its Aeron client goes
            final PeerFailedException e = assertThrows(PeerFailedException.class, () -> {
                while (true) { // every wait ends with the failure once the group has seen it
                    ep.offerBlocking(1, 0, QUEUE, ItemType.INT, src, 0, 64);
                    ep.quiet();
                }
            });
            assertEquals(1, e.rank());
            assertEquals(1, assertThrows(PeerFailedException.class, () -> ep.quiet()).rank());
            c.rank(0).close(); // does not wait for the dead rank
            assertTrue(c.rank(0).isClosed());
        }
    }

    @Test
    void misuseIsRefusedByName() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, 2, true, t -> { })) {
            final HostTransport ht = c.rank(0);
            final HostEndpoint ep = ht.newEndpoint(0);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ep.tryOffer(2, 0, QUEUE, ItemType.INT, src, 0, 1)).getMessage().contains("rank 2"));
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ep.tryOffer(0, 0, QUEUE, ItemType.INT, src, 0, 1)).getMessage().contains("this rank"));
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ep.tryOffer(1, 2, QUEUE, ItemType.INT, src, 0, 1)).getMessage().contains("device 2"));
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ep.tryOffer(1, 0, 64, ItemType.INT, src, 0, 1)).getMessage().contains("queue 64"));
            assertThrows(IndexOutOfBoundsException.class, () -> ep.tryOffer(1, 0, QUEUE, ItemType.INT, src, 0, 17));
            final UnsafeBuffer large = new UnsafeBuffer(new byte[4 * (ep.maxBatchItems(ItemType.INT) + 1)]);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> ep.tryOffer(1, 0, QUEUE, ItemType.INT,
                large, 0, ep.maxBatchItems(ItemType.INT) + 1)).getMessage().contains("offerBlocking"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> ep.atomic(1, RemoteAtomic.INT_ADD,
                dev.overlap.core.GlobalAddress.of(0, HostCluster.MEMORY), 1)).getMessage().contains("outside"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> ep.atomic(1, RemoteAtomic.LONG_ADD,
                dev.overlap.core.GlobalAddress.of(0, 4), 1)).getMessage().contains("aligned"));
            assertThrows(IndexOutOfBoundsException.class, () -> ht.newEndpoint(2));
            // one host transport per group
            assertThrows(IllegalStateException.class,
                () -> HostTransport.builder(c.groups.get(0), c.transports.get(0)).build().close());
            final Transport standalone = Transport.builder().devices(2).build();
            try {
                assertThrows(IllegalArgumentException.class,
                    () -> HostTransport.builder(c.groups.get(0), standalone).build());
            } finally {
                standalone.close();
            }
            assertThrows(IllegalArgumentException.class, () -> HostTransport.builder(c.groups.get(0),
                c.transports.get(0)).termLength(1000));
            // an interrupted wait keeps the interrupt status (the request went out and still takes effect)
            final SymmetricArray<IntArray> target = c.meshes.get(1).allocateInts(8);
            Thread.currentThread().interrupt();
            assertThrows(InterruptedWaitException.class, () -> ep.fetch(1, RemoteAtomic.INT_ADD,
                target.on(0).address(0), 1, 30, TimeUnit.SECONDS));
            assertTrue(Thread.interrupted());
            assertTrue(ep.quiet(30, TimeUnit.SECONDS));
            assertEquals(1, target.on(0).get(0));
            // wrong order of close: the group first closes its host transport first
            final List<Throwable> thrown = c.onEveryRank(r -> c.groups.get(r).close());
            assertNoneThrew(thrown);
            assertTrue(ht.isClosed());
            assertEquals(OfferResult.CLOSED, ep.tryOffer(1, 0, QUEUE, ItemType.INT, src, 0, 1));
            assertTrue(assertThrows(IllegalStateException.class, () -> ep.offerBlocking(1, 0, QUEUE, ItemType.INT,
                src, 0, 1)).getMessage().contains("closed"));
            assertThrows(IllegalStateException.class, () -> ep.quiet());
            assertThrows(IllegalStateException.class, () -> ht.newEndpoint(0));
            ht.close(); // idempotent
        }
    }

    @Test
    void closingTheTransportClosesTheHostTransportFirst() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, 2, true, t -> { })) {
            final HostEndpoint ep = c.rank(0).newEndpoint(0);
            assertNoneThrew(c.onEveryRank(r -> c.transports.get(r).close()));
            assertTrue(c.rank(0).isClosed());
            assertTrue(c.rank(1).isClosed());
            assertThrows(IllegalStateException.class, () -> ep.putLong(1, 0, 1));
            assertThrows(IllegalStateException.class, () -> c.transports.get(0).addDependent(() -> { }));
        }
    }

    @Test
    void closingTheMeshClosesTheHostTransportFirst() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, 2, false, t -> { })) {
            final HostEndpoint ep = c.rank(1).newEndpoint(1);
            assertNoneThrew(c.onEveryRank(r -> c.meshes.get(r).close()));
            assertTrue(c.rank(1).isClosed());
            assertTrue(c.transports.get(1).isClosed());
            assertThrows(IllegalStateException.class, () -> ep.putLong(0, 0, 1));
        }
    }

    @Test
    void aTimedFetchThatTimesOutLeavesNoStaleReply() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        try (HostCluster c = new HostCluster(driverDir, 2, false, t -> t.registerHandler(0, QUEUE, ItemType.INT,
            (queue, sender, items, offset, count) -> {
                await(release);
            }))) {
            final SymmetricArray<LongArray> l0 = c.meshes.get(0).allocateLongs(8);
            final SymmetricArray<LongArray> l1 = c.meshes.get(1).allocateLongs(8);
            assertEquals(l0.offset(), l1.offset());
            final HostEndpoint ep = c.rank(0).newEndpoint(0);
            ep.offerBlocking(1, 0, QUEUE, ItemType.INT, new UnsafeBuffer(new byte[4]), 0, 1); // holds rank 1 up
            final long cell = l1.on(0).address(0);
            assertThrows(TimeoutException.class, () -> ep.fetch(1, RemoteAtomic.LONG_ADD, cell, 5, 20,
                TimeUnit.MILLISECONDS));
            release.countDown();
            assertEquals(5, ep.fetch(1, RemoteAtomic.LONG_ADD, cell, 1), "the timed-out fetch still took effect, "
                + "once, and its late reply is not taken for this one's");
            assertEquals(6, ep.getLong(1, cell));
        }
    }
}
