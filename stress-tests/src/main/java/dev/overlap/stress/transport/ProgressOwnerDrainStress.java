package dev.overlap.stress.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The owner and the progress agent drain the same inbox while the owner also adds to it. The inbox holds remote
 * additions of distinct powers of two (1..32) to one int, so the final value is 63 only if each message was applied
 * exactly once: a message applied twice or lost changes it. r3 says whether the progress agent applied any (both are
 * fine).
 */
@JCStressTest
@Description("the progress thread and the owner never apply one message twice (or lose one)")
@Outcome(id = "63, 6, 0", expect = ACCEPTABLE, desc = "every message applied once; the owner or arbiter did all")
@Outcome(id = "63, 6, 1", expect = ACCEPTABLE_INTERESTING, desc = "every message applied once; the helper did some")
@Outcome(expect = FORBIDDEN, desc = "a message applied twice or lost (r1 = sum, r2 = messages applied)")
@State
public class ProgressOwnerDrainStress {
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final Transport transport = Transport.builder().devices(1).memories(memory).ringCapacity(512)
        .maxEndpoints(2).maxQueues(1).replySlots(1).directPolicy(DirectPolicy.NEVER)
        .helpAfter(0, TimeUnit.NANOSECONDS).build();
    private final Agent helper = transport.newProgressAgent();
    private final Endpoint late;

    public ProgressOwnerDrainStress() {
        final Endpoint early = transport.newEndpoint(0);
        for (int bit = 0; bit < 4; bit++) {
            early.atomic(RemoteAtomic.INT_ADD, GlobalAddress.of(0, 0), 1 << bit);
        }
        late = transport.newEndpoint(0);
    }

    @Actor
    public void owner() {
        late.atomic(RemoteAtomic.INT_ADD, GlobalAddress.of(0, 0), 16);
        transport.inbox(0).drain(2);
        late.atomic(RemoteAtomic.INT_ADD, GlobalAddress.of(0, 0), 32);
        transport.inbox(0).drain(2);
    }

    @Actor
    public void progress() {
        try {
            helper.doWork();
            helper.doWork();
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        transport.inbox(0).drain();
        r.r1 = memory.getIntVolatile(0);
        r.r2 = (int)transport.inbox(0).counter(TransportCounter.MESSAGES_DELIVERED);
        r.r3 = transport.inbox(0).counter(TransportCounter.HELPER_DRAINS) > 0 ? 1 : 0;
    }
}
