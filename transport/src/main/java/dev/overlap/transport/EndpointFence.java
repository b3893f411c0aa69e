package dev.overlap.transport;

import dev.overlap.core.InterruptedWaitException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One job: the order between an endpoint's ring messages and everything it does directly. It counts the ring
 * messages the endpoint sent to each device and compares them with the per-sender applied count that the device's
 * inbox publishes after each drain (release store, read here with an acquire load): {@link #pending} says whether
 * some are not applied yet, and {@link #fence} waits until none is, so a direct operation takes effect after every
 * earlier ring message of the endpoint to that device, and its effects are visible to the waiter.
 *
 * <p>The second of {@link Endpoint}'s superclasses (see {@link EndpointCounters}): the direct put, get and atomic
 * paths ask {@link #pending} with no load beyond the endpoint itself. Every method is final. It also holds the
 * endpoint's {@link EndpointWaits}, through which every wait of the endpoint goes.
 *
 * <p>Thread-safety: confined to the endpoint's owning thread.
 */
abstract class EndpointFence extends EndpointCounters {
    final int id;
    final Inbox[] inboxes;
    final EndpointWaits waits;
    /** Ring messages sent to each device. */
    private final long[] sent;
    /** The applied count last read from each device's inbox (saves the acquire load while nothing is pending). */
    private final long[] appliedSeen;

    EndpointFence(final Transport transport, final int id, final int device, final IdleStrategy idle,
        final AtomicCounter[] counters) {
        super(counters);
        this.id = id;
        this.inboxes = transport.inboxes();
        this.sent = new long[inboxes.length];
        this.appliedSeen = new long[inboxes.length];
        this.waits = new EndpointWaits(this, transport, inboxes, id, device, idle);
    }

    /** One more ring message to {@code dest} is committed. */
    final void sentTo(final int dest) {
        sent[dest]++;
    }

    /** @return ring messages sent to {@code dest} so far */
    final long ringMessagesSentTo(final int dest) {
        return sent[dest];
    }

    /** @return true if this endpoint has ring messages to {@code dest} that are not applied yet */
    final boolean pending(final int dest) {
        final long s = sent[dest];
        if (appliedSeen[dest] == s) {
            return false;
        }
        final long applied = inboxes[dest].appliedBy(id);
        appliedSeen[dest] = applied;
        return applied != s;
    }

    /** Waits until every ring message this endpoint sent to {@code dest} has been applied. */
    final void fence(final int dest) {
        if (!pending(dest)) {
            return;
        }
        add(TransportCounter.FENCE_WAITS, 1);
        waits.begin(EndpointWaits.APPLIED, dest);
        while (pending(dest)) {
            waits.idle(EndpointWaits.APPLIED, dest);
        }
    }

    /**
     * Waits until {@code dest} applied everything this endpoint sent, ignoring interrupts and deadlines (they are
     * noted and the interrupt status set again at the end): for batches sent by reference, whose source buffer the
     * caller may reuse only once they are applied. The wait always ends: the waiter applies them itself if nobody
     * else does.
     */
    final void awaitAppliedUninterruptibly(final int dest) {
        if (!pending(dest)) {
            return;
        }
        final long saved = waits.suspendDeadline();
        boolean interrupted = false;
        try {
            waits.start(dest); // the sender checked that it may wait before it sent the batches
            while (pending(dest)) {
                try {
                    waits.idle(EndpointWaits.BY_REFERENCE, dest);
                } catch (final InterruptedWaitException e) {
                    Thread.interrupted();
                    interrupted = true;
                }
            }
        } finally {
            waits.restoreDeadline(saved);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
