package dev.overlap.transport;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AggregatorTest {
    private static final int Q = 3;
    /** Only a guard against a hang: nothing here asserts how long anything takes. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    private static Transport standalone(final int devices, final int ring) {
        return Transport.builder().devices(devices).ringCapacity(ring).maxEndpoints(8).build();
    }

    private static List<Long> range(final long from, final long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }

    @Test
    void fullBatchesAreSentBySizeAndDeliveredInOrder() {
        try (Transport t = standalone(2, 4096)) {
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            // 8-byte header + 4 items of 4 bytes
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(24, 1_000));
            assertEquals(4, agg.batchCapacity());
            for (int i = 0; i < 10; i++) {
                agg.offerBlocking(i);
            }
            assertEquals(2, agg.pending());
            assertEquals(2, published(ep, TransportCounter.FLUSHES_SIZE));
            assertEquals(8, published(ep, TransportCounter.ITEMS_ENQUEUED), "pending items are published by a poll");
            assertEquals(8, published(ep, TransportCounter.ITEMS_FLUSHED));
            assertEquals(0, ep.poll());
            assertEquals(10, published(ep, TransportCounter.ITEMS_ENQUEUED));
            assertEquals(0, ep.poll());
            assertEquals(10, published(ep, TransportCounter.ITEMS_ENQUEUED), "counted once");
            t.inbox(1).drain();
            assertEquals(range(0, 8), r.items);
            assertEquals(List.of(4, 4), r.batches);
            assertEquals(1, agg.flush());
            assertEquals(0, agg.flush());
            t.inbox(1).drain();
            assertEquals(range(0, 10), r.items);
            assertEquals(1, published(ep, TransportCounter.FLUSHES_EXPLICIT));
            assertEquals(10, t.counter(1, TransportCounter.ITEMS_DELIVERED));
            assertEquals(3, t.counter(1, TransportCounter.MESSAGES_DELIVERED));
            assertEquals(3, t.inbox(1).applied(ep.id()));
            assertTrue(ep.isQuiet(1));
        }
    }

    @Test
    void waitPollsSendAPartialBatch() {
        try (Transport t = standalone(2, 4096)) {
            final Recorder r = new Recorder(ItemType.LONG);
            t.registerHandler(1, Q, ItemType.LONG, r);
            final Endpoint ep = t.newEndpoint(0);
            final LongAggregator agg = ep.longAggregator(1, Q, AggregatorConfig.batched(256, 3));
            agg.offerBlocking(7L);
            agg.offerBlocking(8L);
            assertEquals(0, ep.poll());
            assertEquals(0, ep.poll());
            assertEquals(1, ep.poll(), "the third poll sends the batch");
            assertEquals(0, agg.pending());
            assertEquals(1, published(ep, TransportCounter.FLUSHES_WAIT));
            t.inbox(1).drain();
            assertEquals(List.of(7L, 8L), r.items);
            // the wait clock restarts with the next item
            agg.offerBlocking(9L);
            assertEquals(0, agg.poll());
            assertEquals(0, agg.poll());
            assertEquals(1, agg.poll());
            assertEquals(2, published(ep, TransportCounter.FLUSHES_WAIT));
        }
    }

    @Test
    void waitTimeSendsAPartialBatch() {
        try (Transport t = standalone(2, 4096)) {
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            // waitPolls can never fire here, so only the time rule can send: with a wait time of 1 ns it is due as
            // soon as the clock has moved on from the offer (at once on Linux; the loop covers a coarse clock).
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.builder().batchBytes(256)
                .waitPolls(Long.MAX_VALUE).waitTime(1, TimeUnit.NANOSECONDS).build());
            agg.offerBlocking(5);
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                while (agg.poll() == 0) {
                    Thread.onSpinWait();
                }
            }, "the time rule never sent the partial batch");
            assertEquals(0, agg.pending());
            assertEquals(1, published(ep, TransportCounter.FLUSHES_WAIT));
            assertEquals(0, published(ep, TransportCounter.FLUSHES_EXPLICIT));
            t.inbox(1).drain();
            assertEquals(List.of(5L), r.items);
        }
    }

    @Test
    void waitTimeThatHasNotPassedKeepsTheBatch() {
        try (Transport t = standalone(2, 4096)) {
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            // the counterpart of the test above: an hour cannot pass during a few polls, so the batch stays
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.builder().batchBytes(256)
                .waitPolls(Long.MAX_VALUE).waitTime(1, TimeUnit.HOURS).build());
            agg.offerBlocking(5);
            for (int i = 0; i < 100; i++) {
                assertEquals(0, agg.poll());
            }
            assertEquals(1, agg.pending());
            assertEquals(0, published(ep, TransportCounter.FLUSHES_WAIT));
            t.inbox(1).drain();
            assertTrue(r.items.isEmpty(), "nothing sent");
        }
    }

    @Test
    void eagerModeSendsEveryItemAtOnce() {
        try (Transport t = standalone(2, 4096)) {
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.eager());
            agg.offerBlocking(1);
            agg.offerBlocking(2);
            assertEquals(0, agg.pending());
            assertEquals(2, published(ep, TransportCounter.FLUSHES_EAGER));
            assertEquals(2, published(ep, TransportCounter.MESSAGES_SENT));
            t.inbox(1).drain();
            assertEquals(List.of(1L, 2L), r.items);
            assertEquals(List.of(1, 1), r.batches);
        }
    }

    @Test
    void bulkOfferCopiesWholeBatchesStraightIntoTheRing() {
        try (Transport t = standalone(2, 1 << 16)) {
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(8 + 4 * 16, 1_000));
            final UnsafeBuffer src = new UnsafeBuffer(new byte[4 * 100]);
            for (int i = 0; i < 100; i++) {
                src.putInt(4 * i, i);
            }
            agg.offerBlocking(1000);
            agg.offerBlocking(src, 0, 100); // 15 fill the first batch, then 5 whole batches direct, 5 left
            assertEquals(5, agg.pending());
            assertEquals(96, published(ep, TransportCounter.ITEMS_ENQUEUED));
            agg.flush();
            assertEquals(101, published(ep, TransportCounter.ITEMS_ENQUEUED));
            t.inbox(1).drain();
            final List<Long> expected = range(0, 100);
            expected.add(0, 1000L);
            assertEquals(expected, r.items);
            assertEquals(List.of(16, 16, 16, 16, 16, 16, 5), r.batches);
        }
    }

    @Test
    void tryOfferNeverWaitsAndLosesNothing() {
        try (Transport t = standalone(2, 512)) { // max message 64 bytes; ring holds 8 such records
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(64, 1_000));
            int accepted = 0;
            while (agg.tryOffer(accepted) >= 0) {
                accepted++;
            }
            assertTrue(accepted > 14, "at least one batch fits: " + accepted);
            assertTrue(published(ep, TransportCounter.BACK_PRESSURE_RETRIES) > 0);
            while (t.inbox(1).drain() > 0) {
                // empty the ring
            }
            agg.flush();
            t.inbox(1).drain();
            assertEquals(range(0, accepted), r.items);
        }
    }

    @Test
    void senderDrainsItsOwnInboxWhileTheDestinationIsFull() {
        try (Transport t = standalone(1, 512)) { // a device sending to itself: only its own drains make room
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(0, Q, ItemType.INT, r);
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(0, Q, AggregatorConfig.batched(64, 1_000));
            for (int i = 0; i < 10_000; i++) {
                agg.offerBlocking(i);
            }
            agg.flush();
            t.inbox(0).drain();
            assertEquals(range(0, 10_000), r.items);
            assertTrue(published(ep, TransportCounter.BACK_PRESSURE_RETRIES) > 0);
        }
    }

    @Test
    void senderCountersArePublishedAtPollsFlushesAndEvery64Messages() {
        try (Transport t = standalone(2, 1 << 14)) {
            t.registerHandler(1, Q, ItemType.INT, new Recorder(ItemType.INT));
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.eager());
            agg.offerBlocking(1);
            assertEquals(1, ep.counter(TransportCounter.ITEMS_ENQUEUED), "enqueued is published at once");
            assertEquals(0, ep.counter(TransportCounter.MESSAGES_SENT), "the rest waits for a publication point");
            ep.poll();
            assertEquals(1, ep.counter(TransportCounter.MESSAGES_SENT));
            for (int i = 0; i < Endpoint.PUBLISH_EVERY; i++) {
                agg.offerBlocking(i);
            }
            assertTrue(ep.counter(TransportCounter.MESSAGES_SENT) > 1, "published within 64 messages");
            ep.flush();
            assertEquals(1 + Endpoint.PUBLISH_EVERY, ep.counter(TransportCounter.MESSAGES_SENT));
        }
    }

    @Test
    void countersAddUpPerDevice() {
        try (Transport t = standalone(2, 4096)) {
            t.registerHandler(1, Q, ItemType.INT, new Recorder(ItemType.INT));
            final Endpoint a = t.newEndpoint(0);
            final Endpoint b = t.newEndpoint(0);
            a.intAggregator(1, Q, AggregatorConfig.eager()).offerBlocking(1);
            b.intAggregator(1, Q, AggregatorConfig.eager()).offerBlocking(2);
            assertEquals(2, t.counter(0, TransportCounter.ITEMS_ENQUEUED));
            assertEquals(0, t.counter(1, TransportCounter.ITEMS_ENQUEUED));
            assertEquals(0, t.counter(1, TransportCounter.ITEMS_DELIVERED));
            t.drainAll();
            assertEquals(2, t.counter(1, TransportCounter.ITEMS_DELIVERED));
            assertEquals(1, t.counter(1, TransportCounter.DRAINS));
            assertFalse(t.countersReport().isEmpty());
        }
    }

    /** The owner's current value: publishes its sender counters first (as its next poll or flush would). */
    private static long published(final Endpoint endpoint, final TransportCounter counter) {
        endpoint.publishCounters();
        return endpoint.counter(counter);
    }
}
