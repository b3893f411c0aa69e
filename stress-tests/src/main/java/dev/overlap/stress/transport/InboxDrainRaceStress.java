package dev.overlap.stress.transport;

import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Inbox;
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
import org.openjdk.jcstress.infra.results.IIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Inbox#drain(int)} itself, with no sender running: the inbox already holds 12 messages (6 from each of two
 * sender endpoints, one item each, interleaved), and two threads drain it one message at a time, so they contend for
 * the drain lock on almost every call. Every message must be applied exactly once, each sender's in send order (the
 * handler keeps plain per-sender state, so it also needs the lock's happens-before from one holder to the next), and
 * the per-sender applied counts and the delivered counter the drains publish must add up. The arbiter applies what
 * the actors left. Results: items received, violation flags (1 duplicate/reordered, 2 unknown sender, 4 incomplete),
 * applied counts of both senders, messages delivered, and whether both actors applied some (either is fine).
 */
@JCStressTest
@Description("two threads draining one inbox apply each message once, in per-sender order")
@Outcome(id = "12, 0, 12, 12, 0", expect = ACCEPTABLE, desc = "every message once, in order; one drainer did all")
@Outcome(id = "12, 0, 12, 12, 1", expect = ACCEPTABLE_INTERESTING,
    desc = "every message once, in order; both drainers applied some")
@Outcome(expect = FORBIDDEN, desc = "a message applied twice, lost or out of order, or the counts disagree")
@State
public class InboxDrainRaceStress {
    private static final int PER_SENDER = 6;

    private final ItemLog log = new ItemLog(2);
    private final Transport transport = Transport.builder().devices(1).ringCapacity(512).maxEndpoints(2)
        .maxQueues(1).replySlots(1).build();
    private final Inbox inbox = transport.inbox(0);
    private final int sender0;
    private final int sender1;
    private int drained1;
    private int drained2;

    public InboxDrainRaceStress() {
        transport.registerHandler(0, 0, ItemType.INT, log);
        final Endpoint e0 = transport.newEndpoint(0);
        final Endpoint e1 = transport.newEndpoint(0);
        sender0 = e0.id();
        sender1 = e1.id();
        final IntAggregator a0 = e0.intAggregator(0, 0, AggregatorConfig.eager());
        final IntAggregator a1 = e1.intAggregator(0, 0, AggregatorConfig.eager());
        for (int i = 0; i < PER_SENDER; i++) {
            a0.offerBlocking(ItemLog.item(0, i));
            a1.offerBlocking(ItemLog.item(1, i));
        }
    }

    @Actor
    public void drainer1() {
        int n = 0;
        for (int i = 0; i < PER_SENDER; i++) {
            n += inbox.drain(1);
        }
        drained1 = n;
    }

    @Actor
    public void drainer2() {
        int n = 0;
        for (int i = 0; i < PER_SENDER; i++) {
            n += inbox.drain(1);
        }
        drained2 = n;
    }

    @Arbiter
    public void arbiter(final IIIII_Result r) {
        while (inbox.drain() > 0) {
            // apply what is left
        }
        r.r1 = log.received;
        r.r2 = log.violations | (log.complete(0, PER_SENDER) && log.complete(1, PER_SENDER) ? 0 : 4);
        r.r3 = (int)(inbox.applied(sender0) + inbox.applied(sender1));
        r.r4 = (int)inbox.counter(TransportCounter.MESSAGES_DELIVERED);
        r.r5 = drained1 > 0 && drained2 > 0 ? 1 : 0;
    }
}
