package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RemoteOpsTest {
    private final UnsafeBuffer m0 = new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 16));
    private final UnsafeBuffer m1 = new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 16));

    private Transport transport(final DirectPolicy policy) {
        return Transport.builder().devices(2).memories(m0, m1).ringCapacity(1 << 14).rendezvousThreshold(1024)
            .directPolicy(policy).maxEndpoints(4).build();
    }

    /** Drains one inbox on its own thread until closed: stands in for the owner device. */
    private static final class Owner implements AutoCloseable {
        private final Thread thread;
        private volatile boolean stop;

        Owner(final Inbox inbox) {
            thread = new Thread(() -> {
                while (!stop) {
                    if (inbox.drain() == 0) {
                        Thread.yield();
                    }
                }
            }, "owner-of-dev" + inbox.device());
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() {
            stop = true;
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            assertFalse(thread.isAlive(), "owner thread did not stop within 30 s");
        }
    }

    @Test
    void smallPutsGoThroughTheRingAndApplyInOrder() {
        try (Transport t = transport(DirectPolicy.NEVER)) {
            final Endpoint ep = t.newEndpoint(0);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
            src.putLong(0, 11);
            ep.put(GlobalAddress.of(1, 128), src, 0, 8);
            src.putLong(0, 22); // the source may be reused at once
            ep.put(GlobalAddress.of(1, 128), src, 0, 8);
            ep.putLong(GlobalAddress.of(1, 136), 33);
            assertEquals(0, m1.getLong(128), "not applied before the owner drains");
            assertFalse(ep.isQuiet(1));
            assertEquals(3, t.inbox(1).drain());
            assertEquals(22, m1.getLong(128));
            assertEquals(33, m1.getLong(136));
            assertTrue(ep.isQuiet(1));
            assertEquals(3, published(ep, TransportCounter.RING_OPS));
            assertEquals(0, published(ep, TransportCounter.DIRECT_OPS));
        }
    }

    @Test
    void aLargePutWaitsForEarlierRingMessagesSoOrderHolds() {
        try (Transport t = transport(DirectPolicy.NEVER)) {
            final Endpoint ep = t.newEndpoint(0);
            final UnsafeBuffer small = new UnsafeBuffer(new byte[8]);
            small.putLong(0, -1);
            ep.put(GlobalAddress.of(1, 0), small, 0, 8); // queued in dev1's ring
            final UnsafeBuffer large = new UnsafeBuffer(new byte[4096]);
            for (int i = 0; i < 4096; i += 8) {
                large.putLong(i, i);
            }
            final Owner owner = new Owner(t.inbox(1));
            try {
                ep.put(GlobalAddress.of(1, 0), large, 0, 4096); // rendezvous: fence, then direct copy
            } finally {
                owner.close();
            }
            for (int i = 0; i < 4096; i += 8) {
                assertEquals(i, m1.getLong(i), "the later large put must win at byte " + i);
            }
            assertEquals(1, published(ep, TransportCounter.DIRECT_OPS));
            assertEquals(1, published(ep, TransportCounter.RING_OPS));
            // deterministic fence: an endpoint homed on the destination must apply its own ring put first
            final Endpoint local = t.newEndpoint(1);
            local.put(GlobalAddress.of(1, 0), small, 0, 8);
            assertEquals(0, m1.getLong(0));
            local.put(GlobalAddress.of(1, 0), large, 0, 4096);
            t.inbox(1).drain(); // nothing may be left behind to overwrite the large put
            assertEquals(0, m1.getLong(0), "the large put landed after the small one");
            assertEquals(1, published(local, TransportCounter.FENCE_WAITS));
        }
    }

    @Test
    void getsThroughTheRingAreServedByTheOwner() {
        try (Transport t = transport(DirectPolicy.NEVER)) {
            final Endpoint ep = t.newEndpoint(0);
            m1.putLong(64, 4242);
            for (int i = 0; i < 100; i++) {
                m1.putByte(256 + i, (byte)i);
            }
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[100]);
            final Owner owner = new Owner(t.inbox(1));
            try {
                assertEquals(4242, ep.getLong(GlobalAddress.of(1, 64)));
                ep.get(GlobalAddress.of(1, 256), dst, 0, 100);
                final UnsafeBuffer asyncDst = new UnsafeBuffer(new byte[8]);
                final CompletableFuture<Void> f = ep.getAsync(GlobalAddress.of(1, 64), asyncDst, 0, 8);
                // Wait (no clock: the 30 s bound only guards against a hang) until the owner has applied all three
                // gets; the applied count is published after the reply, so the next poll must complete the future.
                assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                    while (t.inbox(1).applied(ep.id()) < 3) {
                        Thread.onSpinWait();
                    }
                }, "the owner did not apply the async get");
                assertFalse(f.isDone(), "completed only by a poll (or another wait) of its endpoint");
                assertEquals(1, ep.poll(), "the poll completes the async get");
                assertTrue(f.isDone());
                assertEquals(4242, asyncDst.getLong(0));
            } finally {
                owner.close();
            }
            for (int i = 0; i < 100; i++) {
                assertEquals((byte)i, dst.getByte(i));
            }
            assertEquals(3, published(ep, TransportCounter.RING_OPS));
        }
    }

    @Test
    void aGetFromTheHomeDeviceIsServedByTheRequesterItself() {
        try (Transport t = transport(DirectPolicy.NEVER)) {
            final Endpoint ep = t.newEndpoint(1);
            m1.putLong(8, 77);
            assertEquals(77, ep.getLong(GlobalAddress.of(1, 8)));
        }
    }

    @Test
    void remoteAtomicsThroughTheRing() {
        try (Transport t = transport(DirectPolicy.NEVER)) {
            final Endpoint ep = t.newEndpoint(0);
            m1.putInt(0, 100);
            m1.putLong(8, 5);
            ep.atomic(RemoteAtomic.INT_ADD, GlobalAddress.of(1, 0), 23);
            ep.atomic(RemoteAtomic.INT_MIN, GlobalAddress.of(1, 4), -7);
            ep.atomic(RemoteAtomic.LONG_MAX, GlobalAddress.of(1, 8), 9);
            ep.atomic(RemoteAtomic.LONG_MAX, GlobalAddress.of(1, 8), 3);
            t.inbox(1).drain();
            assertEquals(123, m1.getInt(0));
            assertEquals(-7, m1.getInt(4));
            assertEquals(9, m1.getLong(8));
            final Owner owner = new Owner(t.inbox(1));
            try {
                assertEquals(123, ep.fetch(RemoteAtomic.INT_ADD, GlobalAddress.of(1, 0), 1));
                assertEquals(-7, ep.fetch(RemoteAtomic.INT_MAX, GlobalAddress.of(1, 4), -10));
                assertTrue(ep.compareAndSetInt(GlobalAddress.of(1, 0), 124, 1));
                assertFalse(ep.compareAndSetInt(GlobalAddress.of(1, 0), 124, 2));
                assertTrue(ep.compareAndSetLong(GlobalAddress.of(1, 8), 9, Long.MIN_VALUE));
                assertEquals(Long.MIN_VALUE, ep.fetch(RemoteAtomic.LONG_MIN, GlobalAddress.of(1, 8), 0));
            } finally {
                owner.close();
            }
            assertEquals(1, m1.getInt(0));
            assertEquals(-7, m1.getInt(4));
        }
    }

    @Test
    void whenOrderedGoesDirectOnlyWithNothingPending() {
        try (Transport t = transport(DirectPolicy.WHEN_ORDERED)) {
            t.registerHandler(1, 0, ItemType.INT, (q, s, b, o, c) -> { });
            final Endpoint ep = t.newEndpoint(0);
            ep.putLong(GlobalAddress.of(1, 0), 1); // nothing pending: direct
            assertEquals(1, m1.getLong(0));
            ep.intAggregator(1, 0, AggregatorConfig.eager()).offerBlocking(5); // now a ring message is pending
            ep.putLong(GlobalAddress.of(1, 0), 2); // must queue behind it
            ep.atomic(RemoteAtomic.LONG_ADD, GlobalAddress.of(1, 0), 10);
            assertEquals(1, m1.getLong(0));
            assertEquals(1, published(ep, TransportCounter.DIRECT_OPS));
            assertEquals(2, published(ep, TransportCounter.RING_OPS));
            t.inbox(1).drain();
            assertEquals(12, m1.getLong(0));
            ep.atomic(RemoteAtomic.LONG_ADD, GlobalAddress.of(1, 0), 100); // applied: direct again
            assertEquals(112, m1.getLong(0));
            assertEquals(2, published(ep, TransportCounter.DIRECT_OPS));
            assertEquals(112, ep.getLong(GlobalAddress.of(1, 0)));
        }
    }

    @Test
    void quietWaitsUntilEverythingIsApplied() {
        try (Transport t = transport(DirectPolicy.NEVER)) {
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, 0, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, 0, AggregatorConfig.batched(256, 1_000));
            final Owner owner = new Owner(t.inbox(1));
            try {
                for (int i = 0; i < 1000; i++) {
                    agg.offerBlocking(i);
                    ep.atomic(RemoteAtomic.INT_ADD, GlobalAddress.of(1, 0), 1);
                }
                ep.quiet();
                assertEquals(1000, m1.getIntVolatile(0));
                assertEquals(1000, t.counter(1, TransportCounter.ITEMS_DELIVERED));
            } finally {
                owner.close();
            }
            assertEquals(1000, r.items.size());
        }
    }

    /** The owner's current value: publishes its sender counters first (as its next poll or flush would). */
    private static long published(final Endpoint endpoint, final TransportCounter counter) {
        endpoint.publishCounters();
        return endpoint.counter(counter);
    }
}
