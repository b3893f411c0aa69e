package dev.overlap.stress.transport;

import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.LongAggregator;
import dev.overlap.transport.Transport;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link LongAggregator}'s three send paths racing into one tiny inbox (512-byte ring; the 32 two-item batch
 * records of 32 bytes each need twice that, so both senders meet back-pressure and drain it themselves, it being
 * their home inbox too). The ring starts full (a third sender's batches, to another queue, fill it), so sender A's
 * first batches find it full unless B has drained it already: A offers its first 8 items with {@code tryOffer}
 * (never waits: on a negative code it drains and retries, so an item that completes a batch on a full ring must be
 * answered as taken, or the retry sends it twice) and the other 8 with {@code offerBlocking(long)} (waits on a full
 * ring); sender B offers one item, then 15 from a buffer with {@code offerBlocking(DirectBuffer, ...)} (the first
 * fills the staged batch, the rest go as whole batches straight from the buffer into the ring; the first of them
 * waits for room, draining).
 * Every {@code long} must arrive once, whole (upper half intact), in per-sender order. Results: items delivered,
 * violation flags (1 duplicate/reordered, 2 unknown sender, 4 incomplete, 8 corrupted upper half).
 */
@JCStressTest
@Description("LongAggregator offerBlocking/tryOffer/bulk offer with racing senders: no loss, no duplication, order kept")
@Outcome(id = "32, 0", expect = ACCEPTABLE, desc = "all 32 long items delivered once, whole, in per-sender order")
@Outcome(expect = FORBIDDEN, desc = "items lost, duplicated, reordered or corrupted (r1 = delivered, r2 = flags)")
@State
public class LongAggregatorRingDrainStress {
    private static final int ITEMS = 16;

    private final ItemLog log = ItemLog.ofLongs(2);
    private final Transport transport = Transport.builder().devices(1).ringCapacity(512).maxEndpoints(3)
        .maxQueues(2).replySlots(1).build();
    private final LongAggregator a;
    private final LongAggregator b;
    private final UnsafeBuffer bulk = new UnsafeBuffer(new byte[(ITEMS - 1) * 8]);

    public LongAggregatorRingDrainStress() {
        transport.registerHandler(0, 0, ItemType.LONG, log);
        transport.registerHandler(0, 1, ItemType.LONG, (queue, sender, items, offset, count) -> { });
        final AggregatorConfig twoPerBatch = AggregatorConfig.batched(8 + 2 * 8, Long.MAX_VALUE);
        final LongAggregator filler = transport.newEndpoint(0).longAggregator(0, 1, twoPerBatch);
        while (filler.tryOffer(0) >= 0) {
            // fill the ring: the last batch stays pending, never sent
        }
        a = transport.newEndpoint(0).longAggregator(0, 0, twoPerBatch);
        b = transport.newEndpoint(0).longAggregator(0, 0, twoPerBatch);
        for (int i = 1; i < ITEMS; i++) {
            bulk.putLong((i - 1) * 8, ItemLog.longItem(1, i));
        }
    }

    @Actor
    public void senderA() {
        for (int i = 0; i < ITEMS / 2; i++) {
            while (a.tryOffer(ItemLog.longItem(0, i)) < 0) { // not taken (BACK_PRESSURED): drain, retry
                transport.inbox(0).drain();
            }
        }
        for (int i = ITEMS / 2; i < ITEMS; i++) {
            a.offerBlocking(ItemLog.longItem(0, i));
        }
        a.flush();
        transport.inbox(0).drain();
    }

    @Actor
    public void senderB() {
        b.offerBlocking(ItemLog.longItem(1, 0));
        b.offerBlocking(bulk, 0, ITEMS - 1);
        b.flush();
        transport.inbox(0).drain();
    }

    @Arbiter
    public void arbiter(final II_Result r) {
        while (transport.inbox(0).drain() > 0) {
            // apply what is left
        }
        r.r1 = log.received;
        r.r2 = log.violations | (log.complete(0, ITEMS) && log.complete(1, ITEMS) ? 0 : 4);
    }
}
