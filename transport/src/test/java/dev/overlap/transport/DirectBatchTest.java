package dev.overlap.transport;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bulk offers whose whole batches are delivered by reference (Transport.Builder.directBatchThreshold). */
class DirectBatchTest {
    private static final int Q = 1;
    /** Only a guard against a hang: nothing here asserts how long anything takes. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    private static UnsafeBuffer ints(final int from, final int count) {
        final UnsafeBuffer b = new UnsafeBuffer(BufferUtil.allocateDirectAligned(count * 4, 64));
        for (int i = 0; i < count; i++) {
            b.putInt(i * 4, from + i);
        }
        return b;
    }

    private static List<Long> range(final long from, final long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }

    private static long published(final Endpoint endpoint, final TransportCounter counter) {
        endpoint.publishCounters();
        return endpoint.counter(counter);
    }

    @Test
    void wholeBatchesGoByReferenceInOrderWithStagedItemsAndTheOfferReturnsOnceApplied() {
        // one device sending to itself: the offer's wait drains the inbox, so its return proves the batches applied
        try (Transport t = Transport.builder().devices(1).ringCapacity(4096).maxEndpoints(2)
            .directBatchThreshold(24).build()) {
            final List<DirectBuffer> buffers = new ArrayList<>();
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(0, Q, ItemType.INT, (q, s, b, o, c) -> {
                buffers.add(b);
                r.onBatch(q, s, b, o, c);
            });
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(0, Q, AggregatorConfig.batched(24, 1_000)); // 4 items
            agg.offerBlocking(0);
            final UnsafeBuffer src = ints(1, 14);
            agg.offerBlocking(src, 0, 14); // the pending item leaves first (ring), then 12 by reference, 2 staged
            assertEquals(range(0, 13), r.items, "everything up to the staged tail applied when the offer returns");
            assertEquals(List.of(1, 4, 4, 4), r.batches);
            for (int i = 1; i <= 3; i++) {
                assertSame(src, buffers.get(i), "a batch by reference is read in the caller's buffer");
            }
            assertEquals(2, agg.pending());
            assertEquals(3, published(ep, TransportCounter.DIRECT_BATCHES));
            agg.flush();
            t.inbox(0).drain();
            assertEquals(range(0, 15), r.items);
            assertEquals(15, published(ep, TransportCounter.ITEMS_ENQUEUED));
            assertEquals(15, t.counter(0, TransportCounter.ITEMS_DELIVERED));
            assertEquals(published(ep, TransportCounter.BYTES_SENT), t.counter(0, TransportCounter.BYTES_DELIVERED));
            assertEquals(published(ep, TransportCounter.MESSAGES_SENT), t.inbox(0).applied(ep.id()));
            assertTrue(ep.isQuiet(0));
        }
    }

    @Test
    void longBatchesByReferenceReachAnotherThreadsHandler() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            try (Transport t = Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(2)
                .directBatchThreshold(64).build()) {
                final Recorder r = new Recorder(ItemType.LONG);
                t.registerHandler(1, Q, ItemType.LONG, r);
                final Endpoint ep = t.newEndpoint(0);
                final LongAggregator agg = ep.longAggregator(1, Q, AggregatorConfig.batched(72, 1_000)); // 8 items
                final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 * 8, 64));
                final AtomicBoolean stop = new AtomicBoolean();
                final Thread receiver = new Thread(() -> {
                    while (!stop.get()) {
                        t.inbox(1).drain();
                    }
                });
                receiver.start();
                try {
                    for (int round = 0; round < 50; round++) {
                        for (int i = 0; i < 64; i++) {
                            src.putLong(i * 8, round * 64L + i); // reused at once: the offer returned after the reads
                        }
                        agg.offerBlocking(src, 0, 64);
                    }
                } finally {
                    stop.set(true);
                    receiver.join();
                }
                assertEquals(range(0, 50 * 64), r.items);
                assertEquals(400, published(ep, TransportCounter.DIRECT_BATCHES));
            }
        });
    }

    @Test
    void belowTheThresholdOrWithDirectPolicyNeverItemsAreCopiedIntoTheRing() {
        for (final Transport t : new Transport[] {
            Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(2).directBatchThreshold(25).build(),
            Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(2).directBatchThreshold(24)
                .directPolicy(DirectPolicy.NEVER).build()}) {
            try (t) {
                final Recorder r = new Recorder(ItemType.INT);
                t.registerHandler(1, Q, ItemType.INT, r);
                final Endpoint ep = t.newEndpoint(0);
                final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(24, 1_000));
                agg.offerBlocking(ints(0, 8), 0, 8); // returns without anyone draining dev1
                assertEquals(0, published(ep, TransportCounter.DIRECT_BATCHES));
                t.inbox(1).drain();
                assertEquals(range(0, 8), r.items);
            }
        }
    }

    @Test
    void aBulkOfferFromAHandlerCopiesIntoTheRingInsteadOfWaiting() {
        try (Transport t = Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(2)
            .directBatchThreshold(24).build()) {
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(24, 1_000));
            final UnsafeBuffer src = ints(100, 8);
            t.registerHandler(0, Q, ItemType.INT, (q, s, b, o, c) -> agg.offerBlocking(src, 0, 8));
            final IntAggregator self = ep.intAggregator(0, Q, AggregatorConfig.eager());
            self.offerBlocking(1);
            assertEquals(1, t.inbox(0).drain(), "the handler's bulk offer neither waits nor throws");
            assertEquals(0, published(ep, TransportCounter.DIRECT_BATCHES));
            t.inbox(1).drain();
            assertEquals(range(100, 108), r.items);
        }
    }

    @Test
    void withoutReferencesABulkOfferCompletesThePendingBatchInOneMessage() {
        try (Transport t = Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(2).build()) {
            final Recorder r = new Recorder(ItemType.LONG);
            t.registerHandler(1, Q, ItemType.LONG, r);
            final Endpoint ep = t.newEndpoint(0);
            final LongAggregator agg = ep.longAggregator(1, Q, AggregatorConfig.batched(40, 1_000)); // 4 items
            agg.offerBlocking(0L);
            final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(14 * 8, 64));
            for (int i = 0; i < 14; i++) {
                src.putLong(i * 8, i + 1);
            }
            agg.offerBlocking(src, 0, 14);
            assertEquals(3, agg.pending());
            assertEquals(3, published(ep, TransportCounter.FLUSHES_SIZE));
            assertEquals(12, published(ep, TransportCounter.ITEMS_FLUSHED));
            t.inbox(1).drain();
            assertEquals(range(0, 12), r.items);
            assertEquals(List.of(4, 4, 4), r.batches, "the pending item and 3 source items share the first batch");
            agg.flush();
            t.inbox(1).drain();
            assertEquals(range(0, 15), r.items);
            assertEquals(15, t.counter(1, TransportCounter.ITEMS_DELIVERED));
        }
    }

    @Test
    void thresholdIsValidated() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Transport.builder().directBatchThreshold(11));
        assertTrue(e.getMessage().contains("directBatchThreshold"), e.getMessage());
    }
}
