package dev.overlap.transport;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;

import java.util.Arrays;

/**
 * The UPC-style helper: an Agrona {@link Agent} that applies inbox messages for devices whose own threads are not
 * draining (busy in a long kernel, or idle between launches). An inbox is helped when it has a committed message and
 * its consumer position has not moved for {@code helpAfterNanos} (0: help whenever there is a message); once helping,
 * it keeps helping until it sees the owner move the position itself. Draining takes the inbox's drain lock, so the
 * helper and the owner never apply one message twice.
 *
 * <p>Thread-safety: {@link #doWork()} is for one thread (the agent runner's, or a caller composing it into its own
 * duty cycle); the inboxes it drains are shared as {@link Inbox} describes.
 */
final class ProgressAgent implements Agent {
    private final Transport transport;
    private final Inbox[] inboxes;
    private final long helpAfterNanos;
    private final int drainLimit;
    private final String roleName;
    private final long[] lastHead;
    private final long[] stalledSince;

    /** True while {@link #doWork()} runs past its closed check (see {@link Transport}'s close). */
    private volatile boolean inDutyCycle;

    ProgressAgent(final Transport transport, final Inbox[] inboxes, final long helpAfterNanos, final int drainLimit,
        final String roleName) {
        this.transport = transport;
        this.inboxes = inboxes;
        this.helpAfterNanos = helpAfterNanos;
        this.drainLimit = drainLimit;
        this.roleName = roleName;
        this.lastHead = new long[inboxes.length];
        this.stalledSince = new long[inboxes.length];
        Arrays.fill(lastHead, -1);
    }

    boolean isInDutyCycle() {
        return inDutyCycle;
    }

    /**
     * @throws AgentTerminationException once the transport is closing: the inboxes may be freed
     */
    @Override
    public int doWork() {
        inDutyCycle = true;
        try {
            if (transport.isClosing()) {
                throw new AgentTerminationException(roleName + ": " + transport + " is closed");
            }
            return help();
        } finally {
            inDutyCycle = false;
        }
    }

    private int help() {
        int work = 0;
        final boolean always = helpAfterNanos == 0;
        long now = 0;
        for (int i = 0; i < inboxes.length; i++) {
            final Inbox inbox = inboxes[i];
            if (!inbox.ready()) {
                continue;
            }
            if (!always) {
                final long head = inbox.ring().consumerPosition();
                if (now == 0) {
                    now = System.nanoTime();
                }
                if (head != lastHead[i]) { // the owner moved it (or first sight): start the clock
                    lastHead[i] = head;
                    stalledSince[i] = now;
                    continue;
                }
                if (now - stalledSince[i] < helpAfterNanos) {
                    continue;
                }
            }
            final int applied = inbox.drain(drainLimit, true);
            if (applied > 0 && !always) {
                lastHead[i] = inbox.ring().consumerPosition(); // our own progress is no sign of the owner's
            }
            work += applied;
        }
        return work;
    }

    @Override
    public String roleName() {
        return roleName;
    }
}
