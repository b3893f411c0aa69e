package dev.overlap.transport;

import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.Waits;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * One job: how an {@link Endpoint} waits. Every blocking step of an endpoint (ring space, a reply, an ordering fence,
 * batches sent by reference) waits here in the same way, so that no wait depends on the destination's own threads:
 * each round publishes the endpoint's counters and drains its home inbox, and once the destination's inbox has shown
 * no consumer progress for the transport's {@link Transport.Builder#helpAfter help-after} time it applies that inbox's
 * messages too (the UPC helper's job, done by the waiter); while the transport closes it drains every inbox. Then the
 * round checks the transport, the interrupt status and the deadline of the timed call in progress, and idles with the
 * endpoint's Agrona idle strategy. Across processes only this process's inboxes are drained or helped (the others'
 * handlers live elsewhere), and a round ends the wait with {@link dev.overlap.core.PeerFailedException} once a rank
 * has failed. The state of a wait (the deadline, the destination's last consumer position and
 * since when it stood still) lives here, off the endpoint's send paths.
 *
 * <p>No wait while a claim is open: an aggregator's open {@link BatchClaim} holds up its destination's consumer
 * (Agrona's ring is read in order), so a wait of its owner could be a wait for itself, directly or through another
 * device waiting on that destination. Every wait of the endpoint is refused with an {@link IllegalStateException}
 * while one of its claims is open, at its start and in each round (a handler run by the wait may open one).
 *
 * <p>Thread-safety: confined to the endpoint's owning thread, like the endpoint. The consumer positions it reads are
 * Agrona's volatile ring counters.
 */
final class EndpointWaits {
    /** What a wait waits for, for its messages (built only when one is thrown). */
    static final int APPLIED = 0;
    static final int BY_REFERENCE = 1;
    static final int SPACE = 2;
    static final int REPLY = 3;

    private final EndpointCounters counters;
    private final Transport transport;
    private final int id;
    private final int device;
    private final Inbox home;
    private final Inbox[] inboxes;
    private final IdleStrategy idle;
    private final long helpAfterNanos;
    /** The mesh's world when the transport spans processes (waits then end when a peer fails), else null. */
    private final dev.overlap.core.World world;
    /** Claims of this endpoint's aggregators now open. */
    private int openClaims;
    /** When the blocking call in progress gives up ({@link System#nanoTime()}), or {@link Waits#NO_DEADLINE}. */
    private long deadline = Waits.NO_DEADLINE;
    /** The wait in progress: the destination's consumer position last seen, and since when it stood still. */
    private long lastDestPosition;
    private long stalledSince;

    EndpointWaits(final EndpointCounters counters, final Transport transport, final Inbox[] inboxes, final int id,
        final int device, final IdleStrategy idle) {
        this.counters = counters;
        this.transport = transport;
        this.inboxes = inboxes;
        this.home = inboxes[device];
        this.id = id;
        this.device = device;
        this.idle = idle;
        this.helpAfterNanos = transport.helpAfterNanos();
        this.world = transport.world();
    }

    /**
     * Starts a wait for {@code dest}: refuses it on a thread that is running a handler, resets the idle strategy and
     * starts the help-after clock. Then call {@link #idle} once per round until the awaited condition holds.
     *
     * @throws IllegalStateException if this thread is applying an inbox's messages (a handler must not block)
     */
    void begin(final int what, final int dest) {
        checkMayWait(what, dest);
        start(dest);
    }

    /** {@link #begin} without the check, for a wait whose caller checked before it sent what it waits for. */
    void start(final int dest) {
        idle.reset();
        stalledSince = System.nanoTime();
        lastDestPosition = inboxes[dest].ring().consumerPosition();
    }

    /**
     * One round of a wait started with {@link #begin}: useful work ({@link #work}), then idle.
     *
     * @throws IllegalStateException            if the transport closed meanwhile
     * @throws InterruptedWaitException         if the thread was interrupted (status cleared; callers set it again)
     * @throws Endpoint.WaitTimedOutException   if the deadline of the timed call in progress passed
     */
    void idle(final int what, final int dest) {
        idle.idle(work(what, dest));
    }

    /**
     * One round of useful work while waiting for {@code dest}: drain the home inbox, and, once the destination's
     * inbox has had no consumer progress for the help-after time (its owner and the progress thread, if any, are not
     * draining it), the destination's inbox too, as the UPC helper would; all inboxes while the transport closes.
     * Then check the transport, the interrupt status and the deadline. While the destination's own threads drain,
     * the waiter never competes with them for its inbox.
     */
    private int work(final int what, final int dest) {
        counters.publishCounters();
        int work = home.drain();
        if (transport.isClosing()) {
            work += transport.drainAll();
        } else if (dest != device && work == 0 && inboxes[dest].isOwned()) {
            final long position = inboxes[dest].ring().consumerPosition();
            final long now = System.nanoTime();
            if (position != lastDestPosition) {
                lastDestPosition = position;
                stalledSince = now;
            } else if (now - stalledSince >= helpAfterNanos) {
                work += inboxes[dest].drain(Inbox.DEFAULT_DRAIN_LIMIT, true);
                lastDestPosition = inboxes[dest].ring().consumerPosition(); // our progress is no sign of the owner's
            }
        }
        if (transport.isClosed()) {
            throw new IllegalStateException(transport + " closed while endpoint " + id + " waited for "
                + describe(what, dest));
        }
        if (world != null) {
            world.checkPeers(); // a rank that died will never drain, reply or make room
        }
        if (openClaims != 0) {
            throw claimOpen(what, dest);
        }
        if (Thread.interrupted()) {
            throw Waits.interrupted(describe(what, dest));
        }
        if (deadline != Waits.NO_DEADLINE && System.nanoTime() - deadline >= 0) {
            throw new Endpoint.WaitTimedOutException(describe(what, dest));
        }
        return work;
    }

    /** An aggregator of the endpoint opened a claim. */
    void claimOpened() {
        openClaims++;
    }

    /** A claim of the endpoint was committed or aborted. */
    void claimClosed() {
        openClaims--;
    }

    /**
     * @throws IllegalStateException if this thread is applying an inbox's messages, or the endpoint has an open claim:
     *                               it must not wait here
     */
    void checkMayWait(final int what, final int dest) {
        if (openClaims != 0) {
            throw claimOpen(what, dest);
        }
        if (transport.isDrainingOnCurrentThread()) {
            throw new IllegalStateException("endpoint " + id + " on dev" + device + " would wait for "
                + describe(what, dest) + " from inside a handler (this thread is applying an inbox's messages): "
                + "handlers must not block on sends (use tryOffer), or the devices could deadlock");
        }
    }

    private IllegalStateException claimOpen(final int what, final int dest) {
        return new IllegalStateException("endpoint " + id + " on dev" + device + " would wait for "
            + describe(what, dest) + " while " + openClaims + " claim(s) of its aggregators are open: commit or abort"
            + " them first (an open claim holds up its destination's inbox, so the wait could be for itself)");
    }

    private String describe(final int what, final int dest) {
        switch (what) {
            case APPLIED:
                return "dev" + dest + " to apply the messages of endpoint " + id;
            case BY_REFERENCE:
                return "dev" + dest + " to apply batches that reference the caller's buffer (endpoint " + id + ")";
            case SPACE:
                return "space in dev" + dest + "'s inbox (endpoint " + id + ")";
            default:
                return "a reply from dev" + dest + " (endpoint " + id + ")";
        }
    }

    // ------------------------------------------------------------------------------------------------ deadlines

    /**
     * Sets the deadline of a timed call; nested timed calls (from a handler run during the wait) keep the earlier one.
     *
     * @return the deadline to {@link #restoreDeadline restore} afterwards
     */
    long startTimed(final long timeout, final TimeUnit unit) {
        final long saved = deadline;
        final long mine = Waits.deadline(timeout, unit);
        deadline = saved == Waits.NO_DEADLINE || mine - saved < 0 ? mine : saved;
        return saved;
    }

    /**
     * Lifts the deadline for a wait that must not give up (batches that reference the caller's buffer).
     *
     * @return the deadline to {@link #restoreDeadline restore} afterwards
     */
    long suspendDeadline() {
        final long saved = deadline;
        deadline = Waits.NO_DEADLINE;
        return saved;
    }

    /** Puts back the deadline that {@link #startTimed} or {@link #suspendDeadline} returned. */
    void restoreDeadline(final long saved) {
        deadline = saved;
    }

    /** Runs {@code call} with a deadline; @return false if it timed out. For the timed forms without a result. */
    boolean withDeadline(final long timeout, final TimeUnit unit, final Runnable call) {
        final long saved = startTimed(timeout, unit);
        try {
            call.run();
            return true;
        } catch (final Endpoint.WaitTimedOutException e) {
            return false;
        } finally {
            deadline = saved;
        }
    }
}
