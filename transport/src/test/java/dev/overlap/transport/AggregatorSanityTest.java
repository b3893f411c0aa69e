package dev.overlap.transport;

import dev.overlap.testing.Variant;
import dev.overlap.testing.Variant.Element;
import dev.overlap.testing.Variant.Elements;
import dev.overlap.core.OfferResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One sanity suite over every aggregator: {@link IntAggregator} and the {@link LongAggregator} generated from it, in
 * batched and eager mode, with their claims ({@link IntBatchClaim}, {@link LongBatchClaim}). Every send path (single,
 * timed, never-waiting, array and buffer bulk offers, claims) delivers each item once, in order, with every bit (items
 * are each variant's widest values); a negative {@code tryOffer} result means the item was not taken, so a sender
 * that retries on it sends nothing twice; a closed aggregator refuses items (the never-waiting offers with
 * {@code CLOSED}). Counters, wait rules, claims in depth and by-reference delivery are {@link AggregatorTest}'s,
 * {@link AggregatorClaimTest}'s and {@link DirectBatchTest}'s; races are jcstress's ({@code AggregatorRingDrainStress},
 * {@code LongAggregatorRingDrainStress}, {@code ClaimCommitStress}).
 */
class AggregatorSanityTest {
    private static final int Q = 3;
    private static final int FILLER_Q = 2;
    /** Items per batch in batched mode. */
    private static final int BATCH = 4;

    /** An aggregator class with the calls the suite makes, looked up by the signatures each variant must have. */
    static final class Type {
        final Variant variant;
        final ItemType itemType;
        final String factory;
        /** Values whose every bit the item type holds; the last ones need its whole width. */
        final long[] samples;
        final Variant.Op offer;
        final Variant.Op timedOffer;
        final Variant.Op tryOffer;
        final Variant.Op offerArray;
        final Variant.Op offerBuffer;
        final Variant claimVariant;
        final Variant.Op newClaim;
        final Variant.Op tryClaim;
        final Variant.Op put;
        final Variant.Op get;

        Type(final Class<?> type, final Class<?> element, final ItemType itemType, final String factory,
            final Class<?> claimType, final long... samples) {
            this.variant = Variant.of(type, element);
            this.itemType = itemType;
            this.factory = factory;
            this.samples = samples;
            offer = variant.method("offerBlocking", Element.class);
            timedOffer = variant.method("offer", Element.class, long.class, TimeUnit.class);
            tryOffer = variant.method("tryOffer", Element.class);
            offerArray = variant.method("offerBlocking", Elements.class, int.class, int.class);
            offerBuffer = variant.method("offerBlocking", DirectBuffer.class, int.class, int.class);
            claimVariant = Variant.of(claimType, element);
            newClaim = claimVariant.constructor();
            tryClaim = variant.method("tryClaim", int.class, claimType);
            final String suffix = element == int.class ? "Int" : "Long";
            put = claimVariant.method("put" + suffix, int.class, Element.class);
            get = claimVariant.method("get" + suffix, int.class);
        }

        /** @return the {@code i}-th item: a sample, cycling, with {@code i} in bits 8 and up */
        long item(final int i) {
            return samples[i % samples.length] ^ (long)i << 8;
        }

        @Override
        public String toString() {
            return variant.toString();
        }
    }

    static final Type INT = new Type(IntAggregator.class, int.class, ItemType.INT, "intAggregator",
        IntBatchClaim.class, 1, -1, 0x5EED_0F0F, Integer.MAX_VALUE, Integer.MIN_VALUE);
    static final Type LONG = new Type(LongAggregator.class, long.class, ItemType.LONG, "longAggregator",
        LongBatchClaim.class, 1, -1, 0x5EED_0F0F_1234_5678L, Long.MAX_VALUE, Long.MIN_VALUE);

    enum Mode { BATCHED, EAGER }

    /** One combination the suite runs. */
    static final class Case {
        final Type type;
        final Mode mode;

        Case(final Type type, final Mode mode) {
            this.type = type;
            this.mode = mode;
        }

        AggregatorConfig config() {
            return mode == Mode.EAGER ? AggregatorConfig.eager()
                : AggregatorConfig.batched(MessageFormat.BATCH_HEADER_LENGTH + BATCH * type.itemType.bytes(), 1_000);
        }

        /** @return a new aggregator of this case from {@code endpoint} to device 1, queue {@code queue} */
        Aggregator open(final Endpoint endpoint, final int queue) {
            try {
                return (Aggregator)Endpoint.class.getMethod(type.factory, int.class, int.class, AggregatorConfig.class)
                    .invoke(endpoint, 1, queue, config());
            } catch (final ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public String toString() {
            return type + ", " + mode;
        }
    }

    static List<Case> cases() {
        final List<Case> out = new ArrayList<>();
        for (final Type t : List.of(INT, LONG)) {
            for (final Mode m : Mode.values()) {
                out.add(new Case(t, m));
            }
        }
        return out;
    }

    private static Transport transport(final int ring) {
        return Transport.builder().devices(2).ringCapacity(ring).maxEndpoints(8).build();
    }

    private static List<Long> items(final Type t, final int from, final int to) {
        final List<Long> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(t.item(i));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everySendPathDeliversEachItemOnceInOrderWithEveryBit(final Case c) {
        final Type t = c.type;
        try (Transport transport = transport(1 << 16)) {
            final Recorder r = new Recorder(t.itemType);
            transport.registerHandler(1, Q, t.itemType, r);
            final Aggregator agg = c.open(transport.newEndpoint(0), Q);
            assertEquals(c.mode == Mode.EAGER ? 1 : BATCH, agg.batchCapacity());
            for (int i = 0; i < 10; i++) {
                t.offer.call(agg, t.item(i));
            }
            assertEquals(c.mode == Mode.EAGER ? 0 : 10 % BATCH, agg.pending(), "full batches left by size");
            assertTrue(t.timedOffer.callBoolean(agg, t.item(10), 1L, TimeUnit.MINUTES));
            assertEquals(c.mode == Mode.EAGER ? 0 : 12 % BATCH, t.tryOffer.callInt(agg, t.item(11)),
                "taken: the items pending afterwards");
            final long[] array = items(t, 12, 30).stream().mapToLong(Long::longValue).toArray();
            t.offerArray.call(agg, new long[] {-5, -6}, 0, 0);
            t.offerArray.call(agg, array, 0, array.length);
            final int width = t.itemType.bytes();
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[25 * width]);
            for (int i = 0; i < 25; i++) {
                if (width == 4) {
                    buffer.putInt(i * width, (int)t.item(30 + i));
                } else {
                    buffer.putLong(i * width, t.item(30 + i));
                }
            }
            t.offerBuffer.call(agg, buffer, width, 24); // items 31..54, from a nonzero offset
            final Object claim = t.newClaim.call();
            for (int from = 55; from < 60; from += agg.batchCapacity()) { // claims of whole batches, then a shorter one
                final int n = Math.min(agg.batchCapacity(), 60 - from);
                assertEquals(n, t.tryClaim.callInt(agg, n, claim));
                for (int i = 0; i < n; i++) {
                    t.put.call(claim, i, t.item(from + i));
                }
                for (int i = 0; i < n; i++) {
                    assertEquals(t.item(from + i), t.get.callLong(claim, i), "the claim reads back what was written");
                }
                ((BatchClaim)claim).commit();
            }
            agg.flush();
            assertEquals(0, agg.pending());
            transport.inbox(1).drain();
            final List<Long> expected = items(t, 0, 30);
            expected.addAll(items(t, 31, 60));
            assertEquals(expected, r.items);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void tryOfferNeverWaitsAndLosesNothing(final Case c) {
        final Type t = c.type;
        try (Transport transport = transport(512)) {
            final Recorder r = new Recorder(t.itemType);
            transport.registerHandler(1, Q, t.itemType, r);
            final Aggregator agg = c.open(transport.newEndpoint(0), Q);
            int accepted = 0;
            int result;
            while ((result = t.tryOffer.callInt(agg, t.item(accepted))) >= 0) {
                accepted++;
            }
            assertEquals(OfferResult.BACK_PRESSURED, result, OfferResult.describe(result));
            assertTrue(accepted >= agg.batchCapacity(), "at least one batch fits: " + accepted);
            while (transport.inbox(1).drain() > 0) {
                // empty the ring
            }
            agg.flush();
            transport.inbox(1).drain();
            assertEquals(items(t, 0, accepted), r.items);
        }
    }

    /**
     * The destination ring is full (another sender's batches fill it) when this sender's item completes a batch:
     * the item is taken and its batch stays pending, so {@code tryOffer} answers with the items pending (the batch
     * capacity). A sender that drains and retries whenever the answer is negative must then deliver every item exactly
     * once: a negative answer for an item that was staged makes the retry stage it again, and it arrives twice.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aNegativeTryOfferResultMeansTheItemWasNotTaken(final Case c) {
        final Type t = c.type;
        try (Transport transport = transport(512)) {
            final Recorder r = new Recorder(t.itemType);
            transport.registerHandler(1, Q, t.itemType, r);
            transport.registerHandler(1, FILLER_Q, t.itemType, new Recorder(t.itemType));
            final Aggregator filler = c.open(transport.newEndpoint(0), FILLER_Q);
            int filled = 0;
            while (t.tryOffer.callInt(filler, -1L) >= 0) {
                filled++;
            }
            assertTrue(filled > 0, "the filler's batches fill the ring");
            final Aggregator agg = c.open(transport.newEndpoint(0), Q);
            int refused = 0;
            for (int i = 0; i < 3 * agg.batchCapacity(); i++) {
                int result;
                while ((result = t.tryOffer.callInt(agg, t.item(i))) < 0) {
                    assertEquals(OfferResult.BACK_PRESSURED, result, OfferResult.describe(result));
                    refused++;
                    transport.inbox(1).drain();
                }
            }
            assertTrue(refused > 0, "the full ring refused an item at least once");
            agg.flush();
            transport.inbox(1).drain();
            assertEquals(items(t, 0, 3 * agg.batchCapacity()), r.items, "every item once, in order");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aClosedAggregatorRefusesItems(final Case c) {
        final Type t = c.type;
        try (Transport transport = transport(4096)) {
            final Recorder r = new Recorder(t.itemType);
            transport.registerHandler(1, Q, t.itemType, r);
            final Aggregator agg = c.open(transport.newEndpoint(0), Q);
            t.offer.call(agg, t.item(0));
            agg.close();
            assertTrue(agg.isClosed());
            agg.close();
            assertThrows(IllegalStateException.class, () -> t.offer.call(agg, t.item(1)));
            assertEquals(OfferResult.CLOSED, t.tryOffer.callInt(agg, t.item(1)), "the never-waiting offer: a code");
            assertEquals(OfferResult.CLOSED, t.tryClaim.callInt(agg, 1, t.newClaim.call()));
            assertThrows(IllegalStateException.class, () -> t.offerBuffer.call(agg, new UnsafeBuffer(new byte[8]), 0, 1));
            assertThrows(IllegalStateException.class, () -> t.offerArray.call(agg, new long[1], 0, 1));
            assertThrows(IllegalStateException.class, () -> t.timedOffer.call(agg, t.item(1), 1L, TimeUnit.SECONDS));
            assertThrows(IllegalStateException.class, agg::flush);
            assertFalse(agg.toString().isEmpty());
            transport.inbox(1).drain();
            assertEquals(items(t, 0, 1), r.items, "close sent what was pending");
        }
    }
}
