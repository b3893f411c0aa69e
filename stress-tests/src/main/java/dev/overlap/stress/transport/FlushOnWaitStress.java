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
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A partial batch (2 items in a batch that holds 62) must go out after {@code waitPolls} = 3 polls, with no flush
 * call, while the receiver drains concurrently. The receiver may see it during its own drains (r3 = 1) or only the
 * arbiter does (r3 = 0); either way exactly the 2 items arrive and the flush is counted as a WAIT flush.
 */
@JCStressTest
@Description("flush-on-wait fires after waitPolls polls and delivers the partial batch exactly once")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "sent by the wait rule, applied by the arbiter")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "sent by the wait rule, applied by the racing owner")
@Outcome(expect = FORBIDDEN, desc = "the wait rule did not fire, fired twice, or items were lost or repeated")
@State
public class FlushOnWaitStress {
    private final ItemLog log = new ItemLog(1);
    private final Transport transport = Transport.builder().devices(2).ringCapacity(2048).maxEndpoints(1)
        .maxQueues(1).replySlots(1).build();
    private final Endpoint endpoint;
    private final IntAggregator aggregator;
    private int seenByOwner;

    public FlushOnWaitStress() {
        transport.registerHandler(1, 0, ItemType.INT, log);
        endpoint = transport.newEndpoint(0);
        aggregator = endpoint.intAggregator(1, 0, AggregatorConfig.batched(256, 3));
    }

    @Actor
    public void sender() {
        aggregator.offerBlocking(ItemLog.item(0, 0));
        aggregator.offerBlocking(ItemLog.item(0, 1));
        endpoint.poll();
        endpoint.poll();
        endpoint.poll();
    }

    @Actor
    public void owner() {
        transport.inbox(1).drain();
        transport.inbox(1).drain();
        seenByOwner = log.received;
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        transport.inbox(1).drain();
        r.r1 = log.violations == 0 ? log.received : -1;
        r.r2 = (int)endpoint.counter(TransportCounter.FLUSHES_WAIT);
        r.r3 = seenByOwner > 0 ? 1 : 0;
    }
}
