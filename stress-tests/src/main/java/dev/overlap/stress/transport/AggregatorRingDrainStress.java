package dev.overlap.stress.transport;

import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
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
 * Two senders (two endpoints of one device, each with its own aggregator) race to fill that device's tiny inbox
 * (a 512-byte ring, less than the 24 batch records they write). Each sender that finds the ring full drains it itself
 * (it is also its home inbox) while the other keeps claiming and draining, so claims, commits, drains and the drain
 * lock all race ({@code EndpointRingSender}: items written, then the commit). Every item must arrive exactly once, in
 * per-sender order. (jcstress may also run each actor alone: self-draining lets it finish then too.)
 */
@JCStressTest
@Description("aggregator + ring + drain with racing senders: no loss, no duplication, per-sender order")
@Outcome(id = "48, 0", expect = ACCEPTABLE, desc = "all 48 items delivered once, in per-sender order")
@Outcome(expect = FORBIDDEN, desc = "items lost, duplicated or reordered (r1 = delivered, r2 = violation flags)")
@State
public class AggregatorRingDrainStress {
    private static final int ITEMS = 24;

    private final ItemLog log = new ItemLog(2);
    private final Transport transport = Transport.builder().devices(1).ringCapacity(512).maxEndpoints(2)
        .maxQueues(1).replySlots(1).build();
    private final IntAggregator a;
    private final IntAggregator b;

    public AggregatorRingDrainStress() {
        transport.registerHandler(0, 0, ItemType.INT, log);
        final AggregatorConfig twoPerBatch = AggregatorConfig.batched(16, Long.MAX_VALUE);
        a = transport.newEndpoint(0).intAggregator(0, 0, twoPerBatch);
        b = transport.newEndpoint(0).intAggregator(0, 0, twoPerBatch);
    }

    @Actor
    public void senderA() {
        for (int i = 0; i < ITEMS; i++) {
            a.offerBlocking(ItemLog.item(0, i));
        }
        a.flush();
        transport.inbox(0).drain();
    }

    @Actor
    public void senderB() {
        for (int i = 0; i < ITEMS; i++) {
            b.offerBlocking(ItemLog.item(1, i));
        }
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
