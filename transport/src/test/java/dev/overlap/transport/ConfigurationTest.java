package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.Mesh;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigurationTest {
    private static void fails(final Class<? extends Throwable> type, final Executable action,
        final String... fragments) {
        final Throwable t = assertThrows(type, action);
        for (final String f : fragments) {
            assertTrue(t.getMessage().contains(f), "message '" + t.getMessage() + "' should mention '" + f + "'");
        }
    }

    @Test
    void aggregatorConfigRejectsZeroAndNegativeValues() {
        fails(IllegalArgumentException.class, () -> AggregatorConfig.builder().batchBytes(0), "batchBytes", "was 0");
        fails(IllegalArgumentException.class, () -> AggregatorConfig.builder().batchBytes(15), "batchBytes");
        fails(IllegalArgumentException.class, () -> AggregatorConfig.builder().waitPolls(0), "waitPolls", "eager");
        fails(IllegalArgumentException.class, () -> AggregatorConfig.builder().waitPolls(-5), "waitPolls");
        fails(IllegalArgumentException.class, () -> AggregatorConfig.builder().waitTime(0, TimeUnit.MICROSECONDS),
            "waitTime");
        fails(IllegalArgumentException.class, () -> AggregatorConfig.builder().waitTime(-1, TimeUnit.SECONDS),
            "waitTime");
        assertEquals(16, AggregatorConfig.builder().batchBytes(16).build().batchBytes());
    }

    /**
     * The ring/batch rule in both directions agrees with what an inbox really accepts: a batch of
     * {@code largestBatch(ring)} bytes fits the ring, and {@code smallestRing(batch)} is the smallest valid ring that
     * takes the batch.
     */
    @Test
    void ringAndBatchSizesFollowTheInboxLimit() {
        for (int ring = Inbox.MIN_RING_CAPACITY; ring <= 1 << 24; ring <<= 1) {
            assertEquals(ring / 8, AggregatorConfig.largestBatch(ring));
            try (Transport t = Transport.builder().devices(1).ringCapacity(ring).build()) {
                assertEquals(t.inbox(0).maxMessageLength(), AggregatorConfig.largestBatch(ring), "ring " + ring);
            }
            assertEquals(ring, AggregatorConfig.smallestRing(AggregatorConfig.largestBatch(ring)), "ring " + ring);
            if (ring > Inbox.MIN_RING_CAPACITY) {
                assertEquals(ring, AggregatorConfig.smallestRing(AggregatorConfig.largestBatch(ring) / 2 + 1));
            }
        }
        assertEquals(Inbox.MIN_RING_CAPACITY, AggregatorConfig.smallestRing(1));
        assertEquals(1 << 19, AggregatorConfig.smallestRing(64 << 10));
        assertEquals(1 << 20, AggregatorConfig.smallestRing((64 << 10) + 1));
        assertEquals(Inbox.MAX_RING_CAPACITY, AggregatorConfig.smallestRing(Inbox.MAX_RING_CAPACITY / 8));
        fails(IllegalArgumentException.class, () -> AggregatorConfig.smallestRing(Inbox.MAX_RING_CAPACITY / 8 + 1),
            "no inbox ring", "1/8");
        fails(IllegalArgumentException.class, () -> AggregatorConfig.smallestRing(0), "no inbox ring");
    }

    @Test
    void transportBuilderRejectsBadSettings() {
        fails(IllegalArgumentException.class, () -> Transport.builder().ringCapacity(1000), "ringCapacity",
            "power of two");
        fails(IllegalArgumentException.class, () -> Transport.builder().ringCapacity(256), "ringCapacity", "512");
        fails(IllegalArgumentException.class, () -> Transport.builder().devices(0), "devices");
        fails(IllegalArgumentException.class, () -> Transport.builder().maxEndpoints(0), "maxEndpoints");
        fails(IllegalArgumentException.class, () -> Transport.builder().maxQueues(-1), "maxQueues");
        fails(IllegalArgumentException.class, () -> Transport.builder().replySlots(3), "replySlots");
        fails(IllegalArgumentException.class, () -> Transport.builder().rendezvousThreshold(0), "rendezvousThreshold");
        fails(IllegalArgumentException.class, () -> Transport.builder().helpAfter(-1, TimeUnit.MICROSECONDS),
            "helpAfter");
        fails(IllegalArgumentException.class, () -> Transport.builder().build(), "mesh(...)", "devices(n)");
        fails(IllegalArgumentException.class, () -> Transport.builder().devices(2)
            .memories(new UnsafeBuffer(ByteBuffer.allocateDirect(64))).build(), "memories", "one buffer per device");
        try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 16).build()) {
            fails(IllegalArgumentException.class, () -> Transport.builder().mesh(mesh).devices(2).build(),
                "mesh", "devices()");
            fails(IllegalArgumentException.class, () -> Transport.builder().mesh(mesh).maxEndpoints(1).build(),
                "maxEndpoints 1", "2 workers");
            fails(IllegalStateException.class, () -> Transport.builder().mesh(mesh).ringCapacity(1 << 20).build(),
                "device memory exhausted");
        }
    }

    @Test
    void aggregatorCreationIsCheckedAgainstTheDestination() {
        try (Transport t = Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(2).maxQueues(8).build()) {
            t.registerHandler(1, 0, ItemType.INT, (q, s, b, o, c) -> { });
            final Endpoint ep = t.newEndpoint(0);
            fails(IllegalArgumentException.class, () -> ep.intAggregator(1, 0, AggregatorConfig.batched(4096, 1)),
                "batchBytes 4096", "512", "ring capacity / 8", "32768");
            fails(IllegalStateException.class, () -> ep.intAggregator(0, 0, AggregatorConfig.eager()),
                "dev0 has no handler for queue 0", "registerHandler");
            fails(IllegalStateException.class, () -> ep.longAggregator(1, 0, AggregatorConfig.eager()),
                "takes INT items");
            fails(IndexOutOfBoundsException.class, () -> ep.intAggregator(2, 0, AggregatorConfig.eager()),
                "device 2", "0..1");
            fails(IllegalArgumentException.class, () -> ep.intAggregator(1, 8, AggregatorConfig.eager()),
                "queueId", "0..7");
            fails(IllegalStateException.class, () -> t.registerHandler(1, 0, ItemType.INT, (q, s, b, o, c) -> { }),
                "already has a handler");
            t.newEndpoint(1);
            fails(IllegalStateException.class, () -> t.newEndpoint(0), "maxEndpoints");
            final IntAggregator agg = ep.intAggregator(1, 0, AggregatorConfig.batched(64, 1));
            agg.close();
            fails(IllegalStateException.class, () -> agg.offerBlocking(1), "closed");
        }
    }

    @Test
    void remoteOperationsCheckAddressesAtTheEdge() {
        final UnsafeBuffer m0 = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final UnsafeBuffer m1 = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        try (Transport t = Transport.builder().devices(2).memories(m0, m1).ringCapacity(4096).build();
             Transport bare = Transport.builder().devices(1).ringCapacity(512).build()) {
            final Endpoint ep = t.newEndpoint(0);
            fails(IndexOutOfBoundsException.class, () -> ep.putLong(GlobalAddress.of(1, 256), 1), "outside dev1",
                "256 bytes");
            fails(IndexOutOfBoundsException.class, () -> ep.getLong(GlobalAddress.of(5, 0)), "outside 0..1");
            fails(IllegalArgumentException.class, () -> ep.atomic(RemoteAtomic.LONG_ADD, GlobalAddress.of(1, 4), 1),
                "not aligned to 8");
            fails(IllegalArgumentException.class, () -> ep.compareAndSetInt(GlobalAddress.of(1, 2), 0, 1),
                "not aligned to 4");
            fails(IllegalStateException.class, () -> bare.newEndpoint(0).putLong(0, 1), "need device memory");
        }
    }

    @Test
    void closedTransportRejectsUse() {
        final Transport t = Transport.builder().devices(1).ringCapacity(512).build();
        final Endpoint ep = t.newEndpoint(0);
        t.close();
        t.close();
        fails(IllegalStateException.class, () -> t.newEndpoint(0), "closed");
        fails(IllegalStateException.class, () -> ep.flush(), "closed");
    }
}
