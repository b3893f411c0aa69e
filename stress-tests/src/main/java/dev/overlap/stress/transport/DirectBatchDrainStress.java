package dev.overlap.stress.transport;

import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import org.agrona.BufferUtil;
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
 * Two senders (two endpoints of one device) offer their items in bulk with whole batches delivered by reference
 * ({@code Transport.Builder.directBatchThreshold}) into that device's tiny inbox, and each rewrites its one source
 * buffer with the next items as soon as its offer returns. Each offer waits for its batches by draining the inbox,
 * so either thread may apply the other's descriptors and read the other's buffer while that one waits; the drain
 * lock and the rendezvous race ({@code EndpointRingSender.sendBatchesByReference}). Every item must arrive exactly once, in per-sender order: an item read after its
 * sender reused the buffer (an offer that returned too early, or a stale source) shows up as a duplicate or a gap.
 */
@JCStressTest
@Description("bulk offers by reference with racing senders and buffer reuse: no loss, no duplication, per-sender order")
@Outcome(id = "48, 0", expect = ACCEPTABLE, desc = "all 48 items delivered once, in per-sender order")
@Outcome(expect = FORBIDDEN, desc = "items lost, duplicated or reordered (r1 = delivered, r2 = violation flags)")
@State
public class DirectBatchDrainStress {
    private static final int ITEMS = 24;
    private static final int PER_OFFER = 6;

    private final ItemLog log = new ItemLog(2);
    private final Transport transport = Transport.builder().devices(1).ringCapacity(512).maxEndpoints(2)
        .maxQueues(1).replySlots(1).directBatchThreshold(16).build();
    private final IntAggregator a;
    private final IntAggregator b;
    private final UnsafeBuffer sourceA = new UnsafeBuffer(BufferUtil.allocateDirectAligned(PER_OFFER * 4, 64));
    private final UnsafeBuffer sourceB = new UnsafeBuffer(BufferUtil.allocateDirectAligned(PER_OFFER * 4, 64));

    public DirectBatchDrainStress() {
        transport.registerHandler(0, 0, ItemType.INT, log);
        final AggregatorConfig twoPerBatch = AggregatorConfig.batched(16, Long.MAX_VALUE);
        a = transport.newEndpoint(0).intAggregator(0, 0, twoPerBatch);
        b = transport.newEndpoint(0).intAggregator(0, 0, twoPerBatch);
    }

    private static void send(final IntAggregator aggregator, final UnsafeBuffer source, final int sender) {
        for (int seq = 0; seq < ITEMS; seq += PER_OFFER) {
            for (int i = 0; i < PER_OFFER; i++) {
                source.putInt(i * 4, ItemLog.item(sender, seq + i));
            }
            aggregator.offerBlocking(source, 0, PER_OFFER); // returns once the batches were read: the buffer may be reused
        }
    }

    @Actor
    public void senderA() {
        send(a, sourceA, 0);
    }

    @Actor
    public void senderB() {
        send(b, sourceB, 1);
    }

    @Arbiter
    public void arbiter(final II_Result r) {
        while (transport.inbox(0).drain() > 0) {
            // nothing should be left: every offer waited for its batches
        }
        r.r1 = log.received;
        r.r2 = log.violations | (log.complete(0, ITEMS) && log.complete(1, ITEMS) ? 0 : 4);
    }
}
