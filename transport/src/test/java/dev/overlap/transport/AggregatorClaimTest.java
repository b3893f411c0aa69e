package dev.overlap.transport;

import dev.overlap.core.OfferResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Zero-copy claims ({@link IntAggregator#tryClaim}, {@link BatchClaim}) and the result codes of the never-waiting
 * aggregator calls: what a commit sends (the carried pending items first, one record when they fit), what it counts
 * ({@code ITEMS_ENQUEUED} published by the commit itself), abort, the batch-size limit, a claim left open when its
 * aggregator, endpoint or transport closes, claims interleaved with offers and aborts, what an open claim refuses,
 * and every code {@code tryOffer} and {@code tryClaim} return ({@code BACK_PRESSURED}, {@code ADMIN_ACTION},
 * {@code CLOSED}). The races of a commit with a drain are jcstress's ({@code ClaimCommitStress}).
 */
class AggregatorClaimTest {
    private static final int Q = 3;
    private static final int OTHER_Q = 4;
    /** Four {@code int} items per batch. */
    private static final AggregatorConfig FOUR = AggregatorConfig.batched(MessageFormat.BATCH_HEADER_LENGTH + 16,
        1_000);
    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    private static Transport transport(final int ring) {
        return Transport.builder().devices(2).ringCapacity(ring).maxEndpoints(8).build();
    }

    /** Two devices, a recorder of dev1's queue {@link #Q}, an aggregator of four items to it from dev0. */
    private static final class Rig implements AutoCloseable {
        final Transport t;
        final Recorder r = new Recorder(ItemType.INT);
        final Endpoint ep;
        final IntAggregator agg;

        Rig(final int ring) {
            t = transport(ring);
            t.registerHandler(1, Q, ItemType.INT, r);
            ep = t.newEndpoint(0);
            agg = ep.intAggregator(1, Q, FOUR);
        }

        @Override
        public void close() {
            t.close();
        }
    }

    private static List<Long> range(final long from, final long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }

    private static void claimAndCommit(final IntAggregator agg, final IntBatchClaim claim, final int... items) {
        assertEquals(items.length, agg.tryClaim(items.length, claim));
        for (int i = 0; i < items.length; i++) {
            claim.putInt(i, items[i]);
        }
        claim.commit();
    }

    private static long published(final Endpoint endpoint, final TransportCounter counter) {
        endpoint.publishCounters();
        return endpoint.counter(counter);
    }

    @Test
    void pendingItemsThatFitTheBatchLeaveFirstInTheClaimsOwnRecord() {
        try (Rig rig = new Rig(4096)) {
            rig.agg.offerBlocking(0);
            rig.agg.offerBlocking(1);
            final IntBatchClaim claim = new IntBatchClaim();
            assertEquals(2, rig.agg.tryClaim(2, claim));
            assertTrue(claim.isOpen());
            assertTrue(rig.agg.hasOpenClaim());
            assertEquals(2, claim.count());
            assertEquals(0, rig.agg.pending(), "the pending items went into the claim");
            assertEquals(2, rig.ep.counter(TransportCounter.ITEMS_ENQUEUED), "carried items counted at the claim");
            claim.putInt(0, 2);
            claim.putInt(1, 3);
            assertEquals(3, claim.getInt(1));
            claim.commit();
            assertFalse(claim.isOpen());
            assertFalse(rig.agg.hasOpenClaim());
            assertEquals(0, claim.count());
            assertEquals(4, rig.ep.counter(TransportCounter.ITEMS_ENQUEUED), "published by the commit itself");
            rig.t.inbox(1).drain();
            assertEquals(range(0, 4), rig.r.items);
            assertEquals(List.of(4), rig.r.batches, "one record: no copy of the claimed items, no second message");
            assertEquals(1, published(rig.ep, TransportCounter.MESSAGES_SENT));
            assertEquals(4, published(rig.ep, TransportCounter.ITEMS_FLUSHED));
            assertEquals(1, published(rig.ep, TransportCounter.FLUSHES_EXPLICIT));
            assertEquals(4, rig.t.counter(1, TransportCounter.ITEMS_DELIVERED));
        }
    }

    @Test
    void pendingItemsThatDoNotFitLeaveAheadAsABatchOfTheirOwn() {
        try (Rig rig = new Rig(4096)) {
            for (int i = 0; i < 3; i++) {
                rig.agg.offerBlocking(i);
            }
            claimAndCommit(rig.agg, new IntBatchClaim(), 3, 4);
            rig.t.inbox(1).drain();
            assertEquals(range(0, 5), rig.r.items);
            assertEquals(List.of(3, 2), rig.r.batches);
            assertEquals(5, rig.ep.counter(TransportCounter.ITEMS_ENQUEUED));
            assertEquals(2, published(rig.ep, TransportCounter.FLUSHES_EXPLICIT));
        }
    }

    @Test
    void anAbortSendsNothingAndLeavesThePendingItemsPending() {
        try (Rig rig = new Rig(4096)) {
            rig.agg.offerBlocking(0);
            final IntBatchClaim claim = new IntBatchClaim();
            assertEquals(3, rig.agg.tryClaim(3, claim));
            claim.putInt(0, -1);
            claim.abort();
            assertFalse(claim.isOpen());
            assertEquals(1, rig.agg.pending());
            claimAndCommit(rig.agg, claim, 1, 2); // the flyweight is reusable; the ring skips the aborted record
            rig.agg.offerBlocking(3);
            rig.agg.flush();
            rig.t.inbox(1).drain();
            assertEquals(range(0, 4), rig.r.items, "nothing of the aborted claim, everything else once, in order");
            assertEquals(4, rig.ep.counter(TransportCounter.ITEMS_ENQUEUED), "aborted items were never counted");
            assertEquals(4, rig.t.counter(1, TransportCounter.ITEMS_DELIVERED));
            final IllegalStateException e = assertThrows(IllegalStateException.class, claim::commit);
            assertTrue(e.getMessage().contains("committed"), e.getMessage());
        }
    }

    @Test
    void aClaimOfMoreThanOneBatchOrOfNothingIsRefusedWithAClearError() {
        try (Rig rig = new Rig(4096)) {
            final IntBatchClaim claim = new IntBatchClaim();
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> rig.agg.tryClaim(5, claim));
            assertTrue(e.getMessage().contains("a claim of 5 items") && e.getMessage().contains("batch capacity 4"),
                e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> rig.agg.tryClaim(0, claim));
            assertThrows(IllegalArgumentException.class, () -> rig.agg.tryClaim(-1, claim));
            assertThrows(NullPointerException.class, () -> rig.agg.tryClaim(1, null));
            final IntAggregator eager = rig.ep.intAggregator(1, Q, AggregatorConfig.eager());
            assertThrows(IllegalArgumentException.class, () -> eager.tryClaim(2, claim));
            assertEquals(1, eager.tryClaim(1, claim), "an eager aggregator claims one item at a time");
            claim.abort();
            assertFalse(rig.agg.hasOpenClaim());
        }
    }

    @Test
    void theFlyweightNamesEveryMisuse() {
        try (Rig rig = new Rig(4096)) {
            final IntBatchClaim claim = new IntBatchClaim();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> claim.putInt(0, 1));
            assertTrue(e.getMessage().contains("no claim was made"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> claim.getInt(0));
            assertThrows(IllegalStateException.class, claim::commit);
            assertThrows(IllegalStateException.class, claim::abort);
            assertEquals(2, rig.agg.tryClaim(2, claim));
            final IndexOutOfBoundsException out = assertThrows(IndexOutOfBoundsException.class,
                () -> claim.putInt(2, 1));
            assertTrue(out.getMessage().contains("item index 2 is outside the claim of 2 items"), out.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> claim.putInt(-1, 1));
            e = assertThrows(IllegalStateException.class, () -> rig.agg.tryClaim(1, claim));
            assertTrue(e.getMessage().contains("commit or abort it"), e.getMessage());
            final IntBatchClaim second = new IntBatchClaim();
            e = assertThrows(IllegalStateException.class, () -> rig.agg.tryClaim(1, second));
            assertTrue(e.getMessage().contains("has an open claim"), e.getMessage());
            assertTrue(claim.toString().contains("2 items"), claim.toString());
            assertTrue(rig.agg.toString().contains("a claim open"), rig.agg.toString());
            claim.commit();
            e = assertThrows(IllegalStateException.class, () -> claim.putInt(0, 1));
            assertTrue(e.getMessage().contains("committed"), e.getMessage());
            assertTrue(claim.toString().contains("not open"), claim.toString());
        }
    }

    @Test
    void whileAClaimIsOpenItsAggregatorTakesNothingAndItsEndpointRefusesToWait() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            // dev1 sends to itself: with the claim open its own inbox cannot be read past the claim, so a wait for
            // it would be a wait for itself
            try (Transport t = transport(4096)) {
                final Recorder r = new Recorder(ItemType.INT);
                t.registerHandler(1, Q, ItemType.INT, r);
                t.registerHandler(1, OTHER_Q, ItemType.INT, r);
                final Endpoint ep = t.newEndpoint(1);
                final IntAggregator agg = ep.intAggregator(1, Q, FOUR);
                final IntAggregator other = ep.intAggregator(1, OTHER_Q, AggregatorConfig.eager());
                final IntBatchClaim claim = new IntBatchClaim();
                assertEquals(1, agg.tryClaim(1, claim));
                final String open = "has an open claim";
                assertTrue(assertThrows(IllegalStateException.class, () -> agg.tryOffer(1)).getMessage()
                    .contains(open));
                assertThrows(IllegalStateException.class, () -> agg.offerBlocking(1));
                assertThrows(IllegalStateException.class, () -> agg.offer(1, 1, TimeUnit.SECONDS));
                assertThrows(IllegalStateException.class, () -> agg.offerBlocking(new int[] {1}, 0, 1));
                assertThrows(IllegalStateException.class, agg::flush);
                assertThrows(IllegalStateException.class, () -> agg.flush(1, TimeUnit.SECONDS));
                assertEquals(0, agg.poll(), "nothing is pending: a poll sends nothing");
                assertEquals(0, other.tryOffer(10), "another aggregator's never-waiting offer goes after the claim");
                ep.poll(); // drains its home inbox (up to the claim) and polls: no wait
                final IllegalStateException e = assertThrows(IllegalStateException.class, ep::quiet);
                assertTrue(e.getMessage().contains("claim(s) of its aggregators are open"), e.getMessage());
                assertTrue(r.items.isEmpty(), "the claim holds up its destination's consumer");
                claim.putInt(0, 9);
                claim.commit();
                ep.quiet(); // may wait again
                assertEquals(List.of(9L, 10L), r.items, "ring order: the claim was taken before the offer");
            }
        });
    }

    @Test
    void aClaimLeftOpenIsAbortedByItsAggregatorsClose() {
        try (Rig rig = new Rig(4096)) {
            rig.agg.offerBlocking(0);
            final IntBatchClaim claim = new IntBatchClaim();
            assertEquals(2, rig.agg.tryClaim(2, claim));
            claim.putInt(0, 1);
            rig.agg.close();
            assertFalse(claim.isOpen());
            final IllegalStateException e = assertThrows(IllegalStateException.class, claim::commit);
            assertTrue(e.getMessage().contains("aborted when") && e.getMessage().contains("closed"), e.getMessage());
            rig.t.inbox(1).drain();
            assertEquals(List.of(0L), rig.r.items, "the carried item flushed by the close, the claimed ones not");
            assertEquals(OfferResult.CLOSED, rig.agg.tryClaim(1, claim));
        }
    }

    @Test
    void claimsLeftOpenAreAbortedByTheEndpointsAndTheTransportsClose() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            final Recorder r = new Recorder(ItemType.INT);
            final IntBatchClaim byEndpoint = new IntBatchClaim();
            final IntBatchClaim byTransport = new IntBatchClaim();
            final Transport t = transport(4096);
            t.registerHandler(1, Q, ItemType.INT, r);
            final Endpoint a = t.newEndpoint(0);
            final IntAggregator aggA = a.intAggregator(1, Q, FOUR);
            final IntAggregator flushedFirst = a.intAggregator(1, Q, FOUR);
            flushedFirst.offerBlocking(100); // its close flushes (and may wait) only after the claim is aborted
            aggA.offerBlocking(0);
            assertEquals(1, aggA.tryClaim(1, byEndpoint));
            a.close();
            assertFalse(byEndpoint.isOpen());
            assertThrows(IllegalStateException.class, () -> byEndpoint.putInt(0, 1));
            final IntAggregator aggB = t.newEndpoint(0).intAggregator(1, Q, FOUR);
            aggB.offerBlocking(1);
            assertEquals(2, aggB.tryClaim(2, byTransport));
            t.close(); // would wait 10 s for the record, then fail, if the claim stayed open
            assertFalse(byTransport.isOpen());
            assertThrows(IllegalStateException.class, byTransport::commit);
            assertEquals(OfferResult.CLOSED, aggB.tryOffer(2));
            assertEquals(OfferResult.CLOSED, aggB.tryClaim(1, byTransport));
            assertEquals(List.of(0L, 1L, 100L), r.items.stream().sorted().collect(Collectors.toList()),
                "every pending item was flushed by the closes; no claimed one was sent");
        });
    }

    @Test
    void claimsOffersAndAbortsInterleaveInOfferOrder() {
        try (Rig rig = new Rig(1 << 14)) {
            final IntBatchClaim claim = new IntBatchClaim();
            final List<Long> expected = new ArrayList<>();
            int next = 0;
            for (int round = 0; round < 60; round++) {
                for (int k = 0; k < round % 6; k++) { // 0 to 5 offers: some complete batches, some stay pending
                    if (round % 2 == 0) {
                        rig.agg.offerBlocking(next);
                    } else {
                        assertTrue(rig.agg.tryOffer(next) >= 0);
                    }
                    expected.add((long)next++);
                }
                final int m = 1 + round % 4;
                assertEquals(m, rig.agg.tryClaim(m, claim));
                for (int i = 0; i < m; i++) {
                    claim.putInt(i, round % 7 == 3 ? -1 : next + i);
                }
                if (round % 7 == 3) {
                    claim.abort();
                } else {
                    claim.commit();
                    for (int i = 0; i < m; i++) {
                        expected.add((long)next++);
                    }
                }
                if (round % 5 == 0) {
                    rig.t.inbox(1).drain();
                }
            }
            rig.agg.flush();
            rig.t.inbox(1).drain();
            assertEquals(expected, rig.r.items);
            assertEquals(expected.size(), rig.ep.counter(TransportCounter.ITEMS_ENQUEUED));
            assertEquals(expected.size(), rig.t.counter(1, TransportCounter.ITEMS_DELIVERED));
        }
    }

    @Test
    void theNeverWaitingCallsAnswerBackPressuredOnAFullRingAndTakeNothing() {
        try (Transport t = transport(512)) { // the largest message is 64 bytes; a few batches fill the ring
            final Recorder r = new Recorder(ItemType.INT);
            t.registerHandler(1, Q, ItemType.INT, r);
            t.registerHandler(1, OTHER_Q, ItemType.INT, new Recorder(ItemType.INT));
            final IntAggregator filler = t.newEndpoint(0).intAggregator(1, OTHER_Q, FOUR);
            while (filler.tryOffer(-1) != OfferResult.BACK_PRESSURED) {
                // fill dev1's ring
            }
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, Q, FOUR);
            final IntBatchClaim claim = new IntBatchClaim();
            assertEquals(OfferResult.BACK_PRESSURED, agg.tryClaim(1, claim));
            assertFalse(claim.isOpen());
            for (int i = 0; i < 3; i++) {
                assertEquals(i + 1, agg.tryOffer(i), "taken: pending items afterwards");
            }
            assertEquals(4, agg.tryOffer(3), "taken, but its batch could not go out");
            assertEquals(OfferResult.BACK_PRESSURED, agg.tryOffer(4), "the batch is full and the ring too");
            assertEquals(OfferResult.BACK_PRESSURED, agg.tryClaim(1, claim), "the pending batch cannot go ahead");
            assertEquals(4, agg.pending(), "nothing changed");
            final IntAggregator eager = ep.intAggregator(1, Q, AggregatorConfig.eager());
            assertEquals(OfferResult.BACK_PRESSURED, eager.tryOffer(5));
            assertTrue(published(ep, TransportCounter.BACK_PRESSURE_RETRIES) > 0);
            while (t.inbox(1).drain() > 0) {
                // make room
            }
            claimAndCommit(agg, claim, 4, 5);
            agg.flush();
            t.inbox(1).drain();
            assertEquals(range(0, 6), r.items);
        }
    }

    @Test
    void theNeverWaitingCallsAnswerAdminActionInsideTheirAggregatorsOwnBlockingSend() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            try (Transport t = Transport.builder().devices(2).ringCapacity(512).maxEndpoints(8)
                .helpAfter(0, TimeUnit.NANOSECONDS).build()) {
                final Recorder r = new Recorder(ItemType.INT);
                t.registerHandler(1, Q, ItemType.INT, r);
                t.registerHandler(1, OTHER_Q, ItemType.INT, new Recorder(ItemType.INT));
                final Endpoint ep = t.newEndpoint(0);
                final IntAggregator agg = ep.intAggregator(1, Q, FOUR);
                final int[] answers = new int[2];
                // a message waiting in ep's home inbox: the blocking send below applies it while it waits
                t.registerHandler(0, Q, ItemType.INT, (queue, sender, items, offset, count) -> {
                    answers[0] = agg.tryOffer(99);
                    answers[1] = agg.tryClaim(1, new IntBatchClaim());
                });
                t.newEndpoint(1).intAggregator(0, Q, AggregatorConfig.eager()).offerBlocking(0);
                final IntAggregator filler = t.newEndpoint(0).intAggregator(1, OTHER_Q, FOUR);
                while (filler.tryOffer(-1) != OfferResult.BACK_PRESSURED) {
                    // fill dev1's ring
                }
                for (int i = 0; i < 4; i++) {
                    assertTrue(agg.tryOffer(i) >= 0);
                }
                agg.offerBlocking(4); // the full batch must go first: waits, draining its home inbox, then helping dev1
                assertEquals(OfferResult.ADMIN_ACTION, answers[0], OfferResult.describe(answers[0]));
                assertEquals(OfferResult.ADMIN_ACTION, answers[1], OfferResult.describe(answers[1]));
                agg.flush();
                while (t.inbox(1).drain() > 0) {
                    // apply everything
                }
                assertEquals(range(0, 5), r.items, "the handler's offers took nothing");
            }
        });
    }

    @Test
    void putItemsCopiesItemsFromABufferIntoTheClaimAndRefusesWhatDoesNotLieInItOrTheSource() {
        try (Rig rig = new Rig(4096)) {
            final org.agrona.concurrent.UnsafeBuffer src = new org.agrona.concurrent.UnsafeBuffer(new byte[16]);
            for (int i = 0; i < 4; i++) {
                src.putInt(i * Integer.BYTES, 10 + i);
            }
            final IntBatchClaim claim = new IntBatchClaim();
            final IllegalStateException notOpen = assertThrows(IllegalStateException.class,
                () -> claim.putItems(0, src, 0, 1));
            assertTrue(notOpen.getMessage().contains("no claim is open"), notOpen.getMessage());
            assertEquals(4, rig.agg.tryClaim(4, claim));
            claim.putItems(1, src, 4, 3); // items 11, 12, 13 into claimed items 1..3
            claim.putInt(0, 7);
            assertEquals(13, claim.getInt(3));
            assertThrows(IndexOutOfBoundsException.class, () -> claim.putItems(2, src, 0, 3), "past the claim");
            assertThrows(IndexOutOfBoundsException.class, () -> claim.putItems(4, src, 0, 1), "index outside");
            assertThrows(IndexOutOfBoundsException.class, () -> claim.putItems(0, src, 0, 0), "no items");
            final IndexOutOfBoundsException outOfSource = assertThrows(IndexOutOfBoundsException.class,
                () -> claim.putItems(0, src, 8, 3));
            assertTrue(outOfSource.getMessage().contains("source buffer of 16 bytes"), outOfSource.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> claim.putItems(0, src, -4, 1), "negative source");
            assertEquals(13, claim.getInt(3), "a refused copy wrote nothing");
            claim.commit();
            rig.t.inbox(1).drain();
            assertEquals(List.of(7L, 11L, 12L, 13L), rig.r.items);
        }
    }

    @Test
    void putItemsOfALongClaimCopiesEightByteItems() {
        try (Transport t = transport(4096)) {
            final Recorder r = new Recorder(ItemType.LONG);
            t.registerHandler(1, Q, ItemType.LONG, r);
            final LongAggregator agg = t.newEndpoint(0).longAggregator(1, Q,
                AggregatorConfig.batched(MessageFormat.BATCH_HEADER_LENGTH + 32, 1_000));
            final org.agrona.concurrent.UnsafeBuffer src = new org.agrona.concurrent.UnsafeBuffer(new byte[24]);
            src.putLong(8, Long.MAX_VALUE);
            src.putLong(16, -5);
            final LongBatchClaim claim = new LongBatchClaim();
            assertEquals(2, agg.tryClaim(2, claim));
            claim.putItems(0, src, 8, 2);
            assertThrows(IndexOutOfBoundsException.class, () -> claim.putItems(0, src, 16, 2), "past the source");
            claim.commit();
            t.inbox(1).drain();
            assertEquals(List.of(Long.MAX_VALUE, -5L), r.items);
        }
    }
}
