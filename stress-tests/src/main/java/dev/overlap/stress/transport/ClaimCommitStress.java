package dev.overlap.stress.transport;

import dev.overlap.core.OfferResult;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.BatchClaim;
import dev.overlap.transport.BatchHandler;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.LongAggregator;
import dev.overlap.transport.LongBatchClaim;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.DirectBuffer;
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
 * Zero-copy claims ({@link LongAggregator#tryClaim}, {@link BatchClaim}, {@link LongBatchClaim}) racing into one
 * multi-producer inbox while it is drained. Two endpoints claim batches of two {@code long} items in the same tiny
 * inbox (a 512-byte ring: 16 records, fewer than the 16 each sender writes, so both meet back-pressure and drain
 * the inbox themselves before claiming again), write the items in place and commit; every other batch carries an item
 * offered before the claim (the pending item leaves first, in the claim's record). Sender B then keeps draining until
 * all of A's items arrived, so A's commits race a drainer that reads the ring as soon as a record is committed.
 *
 * <p>The receiving handler checks every item (sender and sequence: no loss, duplicate or reordering; the upper half
 * intact: no torn or unwritten item, which a commit before the writes would expose) and, for each batch, that the
 * sender's published {@link TransportCounter#ITEMS_ENQUEUED} already counts every item delivered from it so far: the
 * claim path must count its items enqueued before the commit makes them deliverable (termination detection relies on
 * it). Results: items delivered; violation flags (1 duplicate/reordered, 2 unknown sender, 4 incomplete, 8 corrupted
 * or unwritten item, 16 delivered before counted enqueued).
 */
@JCStressTest
@Description("claims committed into one inbox while it is drained: no loss, duplication, torn items; enqueued first")
@Outcome(id = "32, 0", expect = ACCEPTABLE, desc = "all 32 items delivered once, whole, in per-sender order, counted")
@Outcome(expect = FORBIDDEN, desc = "items lost, duplicated, reordered, torn, or delivered before counted enqueued")
@State
public class ClaimCommitStress {
    private static final int ITEMS = 16;
    private static final int DELIVERED_BEFORE_ENQUEUED = 16;

    private final Transport transport = Transport.builder().devices(1).ringCapacity(512).maxEndpoints(2)
        .maxQueues(1).replySlots(1).build();
    private final Endpoint[] byId = new Endpoint[2];
    private final Checker checker = new Checker(byId);
    private final LongAggregator a;
    private final LongAggregator b;
    private final LongBatchClaim claimA = new LongBatchClaim();
    private final LongBatchClaim claimB = new LongBatchClaim();
    /** Set once A has committed everything (or failed): B stops waiting for A's items then. */
    private volatile boolean aDone;

    public ClaimCommitStress() {
        transport.registerHandler(0, 0, ItemType.LONG, checker);
        final AggregatorConfig twoPerBatch = AggregatorConfig.batched(8 + 2 * 8, Long.MAX_VALUE);
        final Endpoint ea = transport.newEndpoint(0);
        final Endpoint eb = transport.newEndpoint(0);
        byId[ea.id()] = ea;
        byId[eb.id()] = eb;
        a = ea.longAggregator(0, 0, twoPerBatch);
        b = eb.longAggregator(0, 0, twoPerBatch);
    }

    /** Sends sender {@code s}'s {@value #ITEMS} items through claims, half of them carrying an offered item. */
    private void send(final int s, final LongAggregator agg, final LongBatchClaim claim) {
        for (int i = 0; i < ITEMS; i += 2) {
            final int claimed;
            if ((i & 2) == 0) {
                agg.offerBlocking(ItemLog.longItem(s, i)); // staged: never sends (a batch holds two)
                claimed = 1;
            } else {
                claimed = 2;
            }
            int result;
            while ((result = agg.tryClaim(claimed, claim)) == OfferResult.BACK_PRESSURED) {
                transport.inbox(0).drain(); // make room: the other sender may not be draining
            }
            if (result != claimed) {
                throw new IllegalStateException("tryClaim answered " + OfferResult.describe(result));
            }
            for (int k = 0; k < claimed; k++) {
                claim.putLong(k, ItemLog.longItem(s, i + 2 - claimed + k));
            }
            claim.commit();
        }
    }

    @Actor
    public void senderA() {
        try {
            send(0, a, claimA);
        } finally {
            aDone = true;
        }
        transport.inbox(0).drain();
    }

    @Actor
    public void senderB() {
        send(1, b, claimB);
        while (!checker.log.complete(0, ITEMS)) { // race A's commits with a drainer reading the ring at once
            final boolean done = aDone;
            if (transport.inbox(0).drain() == 0 && done) {
                break; // A is done and nothing was ready: the arbiter applies the rest
            }
        }
    }

    @Arbiter
    public void arbiter(final II_Result r) {
        while (transport.inbox(0).drain() > 0) {
            // apply what is left
        }
        r.r1 = checker.log.received;
        r.r2 = checker.log.violations | checker.violations
            | (checker.log.complete(0, ITEMS) && checker.log.complete(1, ITEMS) ? 0 : 4);
    }

    /**
     * The item checks of {@link ItemLog}, plus the enqueued-before-delivered check per batch. Plain fields: the inbox
     * drain lock serialises and orders its calls, and the arbiter reads after all actors.
     */
    private static final class Checker implements BatchHandler {
        final ItemLog log = ItemLog.ofLongs(2);
        private final Endpoint[] byId;
        private final long[] delivered = new long[2];
        int violations;

        Checker(final Endpoint[] byId) {
            this.byId = byId;
        }

        @Override
        public void onBatch(final int queueId, final int sender, final DirectBuffer items, final int offset,
            final int count) {
            log.onBatch(queueId, sender, items, offset, count);
            delivered[sender] += count;
            if (byId[sender].counter(TransportCounter.ITEMS_ENQUEUED) < delivered[sender]) {
                violations |= DELIVERED_BEFORE_ENQUEUED;
            }
        }
    }
}
