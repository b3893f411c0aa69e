package dev.overlap.stress.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Inbox;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Counter reads that race {@link Transport#close()}: the read gate of {@code TransportMemory}, which guards the
 * transport's Agrona counters (the inboxes' receiver counters and the endpoints' sender counters, which the close
 * frees, so that their slots may go to another owner of the same counters store; {@code TransportEndpoints} sums the
 * sender counters per device) and its inbox memory. The documented
 * contract: {@link Transport#counter} and {@link Endpoint#counter} return the value before or after the close (equal
 * here: one message was sent and applied before the race, nothing moves) and never fail; {@link Inbox#counter}
 * returns the value or, once the transport is closed, throws the {@link IllegalStateException} that names it. The
 * counters live in a {@link CountersManager} over buffers the test owns, and the inbox in a buffer it owns; once the
 * close has returned, the closing actor fills both with {@code 0x55} bytes, standing in for the next owner of the
 * counter slots and of the memory, so a read of a freed counter or of the inbox after the close let go of it shows as
 * a wrong value. The reader reads throughout the close and once more after it returned.
 *
 * <p>Results: wrong answers of {@link Transport#counter} and {@link Endpoint#counter} (a wrong value or any
 * exception), and of {@link Inbox#counter} (a wrong value, or an exception while the transport was open or one that
 * does not name it).
 */
@JCStressTest
@Description("a counter read racing Transport.close returns the value (or, from an Inbox, the documented exception)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "every read answered the counter's value or the documented error")
@Outcome(expect = FORBIDDEN, desc = "a read failed because of the close, or read memory the closed transport gave up")
@State
public class TransportCounterCloseStress {
    private static final int RING = 512;
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final UnsafeBuffer inbox = new UnsafeBuffer(ByteBuffer.allocateDirect(Inbox.requiredBytes(RING, 1)));
    /** Room for the counters of one endpoint and one inbox. */
    private static final int COUNTERS = 20;
    private final UnsafeBuffer counterValues = new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS
        * CountersReader.COUNTER_LENGTH));
    private final Transport transport = Transport.builder().devices(1).memories(memory).inboxBuffers(inbox)
        .ringCapacity(RING).maxEndpoints(1).maxQueues(1).replySlots(1).directPolicy(DirectPolicy.NEVER)
        .counters(new CountersManager(new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS
            * CountersReader.METADATA_LENGTH)), counterValues)).build();
    private final Endpoint endpoint;
    private volatile boolean closeReturned;

    public TransportCounterCloseStress() {
        endpoint = transport.newEndpoint(0);
        endpoint.atomic(RemoteAtomic.INT_ADD, GlobalAddress.of(0, 0), 1);
        endpoint.quiet(); // applied (the endpoint drains its home inbox), and its counters published
    }

    @Actor
    public void reader(final II_Result r) {
        int wrong = 0;
        int wrongFromInbox = 0;
        boolean last;
        do {
            last = closeReturned;
            try {
                wrong += transport.counter(0, TransportCounter.MESSAGES_DELIVERED) == 1 ? 0 : 1;
                wrong += transport.counter(0, TransportCounter.MESSAGES_SENT) == 1 ? 0 : 1;
                wrong += endpoint.counter(TransportCounter.RING_OPS) == 1 ? 0 : 1;
            } catch (final RuntimeException e) {
                wrong++;
            }
            try {
                wrongFromInbox += transport.inbox(0).counter(TransportCounter.MESSAGES_DELIVERED) == 1 ? 0 : 1;
            } catch (final IllegalStateException e) {
                final String message = e.getMessage();
                wrongFromInbox += transport.isClosed() && message != null
                    && message.startsWith(transport.toString()) ? 0 : 1;
            }
        } while (!last);
        r.r1 = wrong;
        r.r2 = wrongFromInbox;
    }

    @Actor
    public void closer() {
        transport.close();
        inbox.setMemory(0, inbox.capacity(), (byte)0x55); // the memory's next owner writes over it
        counterValues.setMemory(0, counterValues.capacity(), (byte)0x55); // and the counter slots' next owners
        closeReturned = true;
    }
}
