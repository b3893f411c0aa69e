package dev.overlap.stress.transport;

import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
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
 * The sender counters of {@code EndpointCounters}: {@link TransportCounter#ITEMS_ENQUEUED} is published (release
 * store) before the message that carries the items is committed ({@code EndpointRingSender.commitBatch}), while the
 * other sender counters wait for the next batch publication. So a receiver that has applied items and then reads the
 * sender's enqueued count (acquire load) sees at least as many: {@code enqueued >= delivered} holds for any reader,
 * which termination detection relies on. The sender offers {@value #ITEMS} items in eager mode (one message each; the
 * batch publication of the other counters takes 64 messages), then polls; the receiver drains the destination's inbox
 * until it has applied something (or a bounded number of times), then reads the count.
 *
 * <p>Results: 1 if the receiver's read of the enqueued count was at least the items it had applied (0: an item
 * delivered before it was counted enqueued); items delivered in all (the arbiter drains the rest).
 */
@JCStressTest
@Description("a receiver that applied items reads the sender's ITEMS_ENQUEUED as at least that many")
@Outcome(id = "1, 8", expect = ACCEPTABLE, desc = "enqueued was published before the items could be delivered")
@Outcome(expect = FORBIDDEN, desc = "items delivered before they were counted enqueued, or lost or repeated")
@State
public class EnqueuedBeforeDeliveredStress {
    static final int ITEMS = 8;
    private final ItemLog log = new ItemLog(1);
    private final Transport transport = Transport.builder().devices(2).ringCapacity(2048).maxEndpoints(1)
        .maxQueues(1).replySlots(1).build();
    private final Endpoint endpoint;
    private final IntAggregator aggregator;
    private int enqueuedCovered;

    public EnqueuedBeforeDeliveredStress() {
        transport.registerHandler(1, 0, ItemType.INT, log);
        endpoint = transport.newEndpoint(0);
        aggregator = endpoint.intAggregator(1, 0, AggregatorConfig.eager());
    }

    @Actor
    public void sender() {
        for (int i = 0; i < ITEMS; i++) {
            aggregator.offerBlocking(ItemLog.item(0, i));
        }
        endpoint.poll();
    }

    @Actor
    public void receiver() {
        for (int i = 0; i < 64 && log.received == 0; i++) {
            transport.inbox(1).drain();
        }
        final int received = log.received;
        enqueuedCovered = endpoint.counter(TransportCounter.ITEMS_ENQUEUED) >= received ? 1 : 0;
    }

    @Arbiter
    public void arbiter(final II_Result r) {
        transport.inbox(1).drain();
        r.r1 = enqueuedCovered;
        r.r2 = log.violations == 0 ? log.received : -1;
    }
}
