package dev.overlap.hosts;

import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;

/**
 * One job: a host group's receiver and failure detector, an Agrona agent on the group's own thread. Each duty cycle
 * polls the group's subscription and files every message into the {@link GroupState}: a peer's collective
 * contribution (checking that its generations run 1, 2, 3... so that a lost or duplicated message is reported, not
 * mixed in), its goodbye (answered at once), a failure it reports. Every tenth of the peer timeout (at most every
 * 100 ms) it sends a heartbeat to every peer and checks each one that joined and has not left: a peer whose
 * connection closed (its Aeron image went unavailable: the process or its media driver ended, or the network
 * between is gone) or that was silent for longer than the peer timeout has failed. The first failure recorded,
 * whoever found it, is reported to every other peer once, so the survivors name the same rank.
 *
 * <p>Thread-safety: confined to the agent's thread (its arrays are plain); it shares only the {@link GroupState}
 * and the publications, which Aeron makes safe to offer to from several threads.
 */
final class GroupAgent implements Agent {
    private static final int FRAGMENT_LIMIT = 16;
    /** Most fragments read before a check (far more than the heartbeats of a long pause). */
    private static final int MAX_DRAIN = 1 << 16;

    private final int rank;
    private final int ranks;
    private final long group;
    private final HostFile hosts;
    private final Subscription subscription;
    private final Publication[] publications;
    private final GroupState state;
    private final long peerTimeoutNanos;
    private final long periodNanos;
    private final long[] lastHeard;
    private final long[] lastGeneration;
    private final Image[] images;
    private final boolean[] owesAck;
    private final boolean[] owesFailureReport;
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[Wire.MAX_MESSAGE]);
    private final FragmentHandler onFragment = this::onFragment;
    private long now;
    private long nextBeat;
    private GroupState.Failure reported;

    GroupAgent(final HostFile hosts, final int rank, final Subscription subscription, final Publication[] publications,
        final GroupState state, final long peerTimeoutNanos) {
        this.rank = rank;
        this.ranks = hosts.ranks();
        this.group = hosts.fingerprint();
        this.hosts = hosts;
        this.subscription = subscription;
        this.publications = publications;
        this.state = state;
        this.peerTimeoutNanos = peerTimeoutNanos;
        this.periodNanos = heartbeatPeriodNanos(peerTimeoutNanos);
        this.lastHeard = new long[ranks];
        this.lastGeneration = new long[ranks];
        this.images = new Image[ranks];
        this.owesAck = new boolean[ranks];
        this.owesFailureReport = new boolean[ranks];
    }

    /** @return how often heartbeats go out and peers are checked: a tenth of the peer timeout, at most 100 ms */
    static long heartbeatPeriodNanos(final long peerTimeoutNanos) {
        return Math.min(TimeUnit.MILLISECONDS.toNanos(100), peerTimeoutNanos / 10);
    }

    @Override
    public String roleName() {
        return "overlap-hosts-r" + rank;
    }

    @Override
    public int doWork() {
        now = System.nanoTime();
        int work = subscription.poll(onFragment, FRAGMENT_LIMIT);
        if (now - nextBeat >= 0) {
            nextBeat = now + periodNanos;
            // Read everything that is in before judging silence: after this thread was held up (a pause, a busy
            // machine) a peer's heartbeats may be waiting unread behind another peer's backlog.
            for (int polled = work; polled > 0 && work < MAX_DRAIN; work += polled) {
                polled = subscription.poll(onFragment, FRAGMENT_LIMIT);
            }
            beat();
            check();
            work++;
        }
        work += settleDebts();
        return work;
    }

    // --------------------------------------------------------------------------------------------- receiving

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header) {
        if (length < Wire.HEADER_LENGTH || buffer.getLong(offset + Wire.GROUP_OFFSET, Wire.ORDER) != group) {
            state.ignoredMessage();
            return;
        }
        final int sender = buffer.getInt(offset + Wire.SENDER_OFFSET, Wire.ORDER);
        if (sender < 0 || sender >= ranks || sender == rank) {
            state.ignoredMessage();
            return;
        }
        images[sender] = (Image)header.context();
        lastHeard[sender] = now;
        if (!state.hasJoined(sender)) {
            state.markJoined(sender);
        }
        switch (buffer.getInt(offset + Wire.TYPE_OFFSET, Wire.ORDER)) {
            case Wire.HEARTBEAT:
                break;
            case Wire.COLLECTIVE:
                onCollective(sender, buffer, offset, length);
                break;
            case Wire.FAILED:
                onFailureReport(sender, buffer, offset, length);
                break;
            case Wire.BYE:
                owesAck[sender] = !acknowledge(sender); // answered before the peer counts as left
                state.markLeft(sender);
                break;
            case Wire.BYE_ACK:
                state.markAcked(sender);
                break;
            default:
                state.ignoredMessage();
        }
    }

    private void onCollective(final int sender, final DirectBuffer buffer, final int offset, final int length) {
        if (length < Wire.VALUES_OFFSET) {
            state.ignoredMessage();
            return;
        }
        final int count = buffer.getInt(offset + Wire.COUNT_OFFSET, Wire.ORDER);
        if (count < 0 || count > Wire.MAX_VALUES || length < Wire.VALUES_OFFSET + count * Long.BYTES) {
            state.ignoredMessage();
            return;
        }
        final long generation = buffer.getLong(offset + Wire.GENERATION_OFFSET, Wire.ORDER);
        final long expected = lastGeneration[sender] + 1;
        if (generation != expected) {
            state.fail(sender, "its collective #" + generation + " arrived when #" + expected + " was due at rank "
                + rank + ": a message was lost or duplicated");
            return;
        }
        lastGeneration[sender] = generation;
        state.deposit(sender, generation, buffer.getInt(offset + Wire.OP_OFFSET, Wire.ORDER), buffer,
            offset + Wire.VALUES_OFFSET, count);
    }

    private void onFailureReport(final int sender, final DirectBuffer buffer, final int offset, final int length) {
        final int failed = buffer.getInt(offset + Wire.FAILED_RANK_OFFSET, Wire.ORDER);
        final String reason = Wire.reason(buffer, offset, length);
        if (failed < 0 || failed >= ranks || reason == null) {
            state.ignoredMessage();
            return;
        }
        state.fail(failed, failed == rank ? "declared failed by rank " + sender + " (this process): " + reason
            : reason + " (found by rank " + sender + ")");
    }

    // ------------------------------------------------------------------------------------ heartbeats, failures

    private void beat() {
        final int length = Wire.header(out, Wire.HEARTBEAT, rank, group);
        for (int r = 0; r < ranks; r++) {
            if (r != rank && !state.hasLeft(r)) {
                publications[r].offer(out, 0, length); // best effort: a missed beat is made up by the next one
            }
        }
    }

    /** Finds a peer whose connection closed or that went silent (once a failure is known, there is nothing to find). */
    private void check() {
        if (state.failure() != null) {
            return;
        }
        for (int r = 0; r < ranks; r++) {
            if (r == rank || !state.hasJoined(r) || state.hasLeft(r)) {
                continue;
            }
            final Image image = images[r];
            if (image != null && image.isClosed()) {
                state.fail(r, "its messages stopped: the connection from " + hosts.member(r).endpoint() + " closed "
                    + "(Aeron image unavailable) without a goodbye: the process exited or was killed, or the network"
                    + " between is down");
                return;
            }
            final long silent = now - lastHeard[r];
            if (silent > peerTimeoutNanos) {
                state.fail(r, "nothing heard from " + hosts.member(r).endpoint() + " for "
                    + TimeUnit.NANOSECONDS.toMillis(silent) + " ms (limit "
                    + TimeUnit.NANOSECONDS.toMillis(peerTimeoutNanos) + " ms): hung, stopped, or unreachable");
                return;
            }
        }
    }

    /** Sends what is owed: goodbye acknowledgements, and the report of a failure recorded here first. */
    private int settleDebts() {
        int work = 0;
        final GroupState.Failure f = state.failure();
        if (f != null && f != reported) {
            reported = f;
            for (int r = 0; r < ranks; r++) {
                owesFailureReport[r] = r != rank && r != f.rank() && !state.hasLeft(r);
            }
        }
        for (int r = 0; r < ranks; r++) {
            if (owesAck[r] && acknowledge(r)) {
                owesAck[r] = false;
                work++;
            }
            if (owesFailureReport[r] && settled(publications[r].offer(out, 0,
                Wire.failed(out, rank, group, reported.rank(), reported.reason)))) {
                owesFailureReport[r] = false;
                work++;
            }
        }
        return work;
    }

    /** @return true if the acknowledgement of {@code peer}'s goodbye went out (or nobody is left to take it) */
    private boolean acknowledge(final int peer) {
        return settled(publications[peer].offer(out, 0, Wire.header(out, Wire.BYE_ACK, rank, group)));
    }

    /** @return true if an offer's result means done: sent, or the peer's end is gone (nobody to retry for) */
    private static boolean settled(final long result) {
        return result > 0 || result == Publication.NOT_CONNECTED || result == Publication.CLOSED;
    }
}
