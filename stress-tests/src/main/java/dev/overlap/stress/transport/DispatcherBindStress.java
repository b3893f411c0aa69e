package dev.overlap.stress.transport;

import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Inbox;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Handler bindings of an inbox's {@code Dispatcher}, published copy-on-write through a volatile array and changed
 * under the dispatcher's monitor: two threads bind handlers for two queues of one inbox at the same moment
 * ({@link Transport#registerHandler}), and each then sends one item to its own queue through its own endpoint (an
 * eager aggregator, whose creation already looks the binding up); the second thread also drains the inbox, so it
 * applies whatever the first one sent with the first one's binding. Neither binding may be lost (a lost binding
 * makes the binder's aggregator creation fail, or the drain fail with "no handler is registered for that queue"),
 * and a drainer must find the handler that another thread bound before it sent. The arbiter drains what is left.
 *
 * <p>Results: items received by the handler of queue 0 and of queue 1; failures (a binding missing when its binder
 * looked it up, or when a drain applied a message for it); items the second thread's drain applied (either is fine).
 */
@JCStressTest
@Description("Dispatcher: handlers bound concurrently on two threads are both kept and seen by the draining thread")
@Outcome(id = "1, 1, 0, .*", expect = ACCEPTABLE, desc = "both bindings kept; each item applied once by its handler")
@Outcome(expect = FORBIDDEN, desc = "a binding lost (one thread's copy-on-write overwrote the other's), or a drainer "
    + "did not see a handler bound before the message was sent")
@State
public class DispatcherBindStress {
    private final ItemLog log0 = new ItemLog(1);
    private final ItemLog log1 = new ItemLog(1);
    private final Transport transport = Transport.builder().devices(1).ringCapacity(512).maxEndpoints(2)
        .maxQueues(2).replySlots(1).build();
    private final Inbox inbox = transport.inbox(0);
    private final Endpoint endpoint0 = transport.newEndpoint(0);
    private final Endpoint endpoint1 = transport.newEndpoint(0);
    private int failures0;
    private int failures1;
    private int drained1;

    @Actor
    public void binder0() {
        transport.registerHandler(0, 0, ItemType.INT, log0);
        try {
            endpoint0.intAggregator(0, 0, AggregatorConfig.eager()).offerBlocking(ItemLog.item(0, 0));
        } catch (final IllegalStateException e) {
            failures0++;
        }
    }

    @Actor
    public void binder1ThenDrain() {
        transport.registerHandler(0, 1, ItemType.INT, log1);
        try {
            endpoint1.intAggregator(0, 1, AggregatorConfig.eager()).offerBlocking(ItemLog.item(0, 0));
        } catch (final IllegalStateException e) {
            failures1++;
        }
        try {
            drained1 = inbox.drain();
        } catch (final IllegalStateException e) {
            failures1++;
        }
    }

    @Arbiter
    public void arbiter(final IIII_Result r) {
        int failures = failures0 + failures1;
        for (int i = 0; i < 8; i++) {
            try {
                if (inbox.drain() == 0) {
                    break;
                }
            } catch (final IllegalStateException e) {
                failures++;
            }
        }
        r.r1 = log0.received + (log0.violations != 0 ? 10 : 0);
        r.r2 = log1.received + (log1.violations != 0 ? 10 : 0);
        r.r3 = failures;
        r.r4 = drained1;
        transport.close();
    }
}
