package dev.overlap.stress.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Transport;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A get through the ring: the requester sends the request and waits on its reply slot while the owner drains the
 * target device's inbox; whoever applies the request copies 16 bytes straight into the requester's buffer and then
 * releases the slot's sequence ({@code ReplySlots.completeGet}: a plain copy, then a release store the requester's
 * acquire load pairs with). When the blocking get returns, both copied words must be visible. (The requester's
 * home is the target device, so it can also serve itself: jcstress may run an actor alone.)
 */
@JCStressTest
@Description("a ring get's reply data is visible when the requester sees the reply sequence")
@Outcome(id = "1229782938247303441, 2459565876494606882", expect = ACCEPTABLE, desc = "both words of the reply")
@Outcome(expect = FORBIDDEN, desc = "the get returned before (part of) its data was visible")
@State
public class GetReplyStress {
    private static final long A = 0x1111_1111_1111_1111L;
    private static final long B = 0x2222_2222_2222_2222L;

    private final UnsafeBuffer m0 = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final UnsafeBuffer m1 = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final Transport transport = Transport.builder().devices(2).memories(m0, m1).ringCapacity(512)
        .maxEndpoints(1).maxQueues(1).replySlots(1).directPolicy(DirectPolicy.NEVER).build();
    private final Endpoint requester = transport.newEndpoint(1);
    private final UnsafeBuffer dst = new UnsafeBuffer(new byte[16]);

    public GetReplyStress() {
        m1.putLong(16, A);
        m1.putLong(24, B);
    }

    @Actor
    public void requester(final JJ_Result r) {
        requester.get(GlobalAddress.of(1, 16), dst, 0, 16);
        r.r1 = dst.getLong(0);
        r.r2 = dst.getLong(8);
    }

    @Actor
    public void owner() {
        for (int i = 0; i < 8 && transport.inbox(1).drain() == 0; i++) {
            Thread.onSpinWait();
        }
    }
}
