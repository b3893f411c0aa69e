package dev.overlap.stress.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Inbox;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Transport#close()} against a progress agent of {@link Transport#newProgressAgent()} that a user drives in
 * their own duty cycle (the Dekker handshake of {@code ProgressAgent.inDutyCycle} and the transport's
 * {@code closing}, which {@code ProgressAgents.awaitIdle} waits out): once close has returned, the agent must never touch the inboxes again, since their memory then
 * belongs to someone else. The inbox here lives in a buffer the test owns, holding one remote add of 1; after the
 * close returns, the closing actor puts the inbox's bytes back as they were before that message was applied,
 * standing in for the next owner of the memory writing something that parses as a message. An agent still inside a
 * duty cycle it began before the close would apply that "message" a second time. The agent runs duty cycles until the
 * close ends them, and helps at once ({@code helpAfter} 0: it drains whenever a message is ready), so a duty cycle is
 * under way whenever the close begins: the race needs only that one be slow (the agent's thread descheduled between
 * its closing check and its drain). Two duty cycles per state instead caught a close that skips the wait once in
 * some 30,000 states; the loop, about once in 500.
 *
 * <p>Results: the target int (1: the message applied once, by the agent or by the close's final drain; 2: applied
 * again from memory the transport no longer owned), and whether the agent's runner was told to terminate (always,
 * once the close began).
 */
@JCStressTest
@Description("no progress agent touches an inbox after the transport's close has returned")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "applied once; the agent saw the close and terminated")
@Outcome(expect = FORBIDDEN, desc = "the agent applied a message from an inbox the closed transport had given up")
@State
public class ProgressAgentCloseStress {
    private static final int RING = 512;
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final UnsafeBuffer inbox = new UnsafeBuffer(ByteBuffer.allocateDirect(Inbox.requiredBytes(RING, 2)));
    private final Transport transport = Transport.builder().devices(1).memories(memory).inboxBuffers(inbox)
        .ringCapacity(RING).maxEndpoints(2).maxQueues(1).replySlots(1).directPolicy(DirectPolicy.NEVER).helpAfter(0, TimeUnit.NANOSECONDS).build();
    private final Agent agent = transport.newProgressAgent();
    private final byte[] before = new byte[inbox.capacity()];
    private int terminated;

    public ProgressAgentCloseStress() {
        transport.newEndpoint(0).atomic(RemoteAtomic.INT_ADD, GlobalAddress.of(0, 0), 1);
        inbox.getBytes(0, before);
    }

    @Actor
    public void agent() {
        try {
            while (true) { // duty cycles until the close ends them: one is under way whenever the close begins
                agent.doWork();
            }
        } catch (final AgentTerminationException e) {
            terminated = 1;
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Actor
    public void closer() {
        transport.close();
        inbox.putBytes(0, before); // the memory's next owner writes what looks like the same message
    }

    @Arbiter
    public void arbiter(final II_Result r) {
        r.r1 = memory.getIntVolatile(0);
        r.r2 = terminated;
    }
}
