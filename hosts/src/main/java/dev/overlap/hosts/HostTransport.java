package dev.overlap.hosts;

import dev.overlap.core.AgentThread;
import dev.overlap.core.Mesh;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.Waits;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Transport;
import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The transport across hosts: remote queue pushes, puts, gets and atomics from this rank of a {@link HostGroup} to
 * the devices of the other ranks, each rank running its own {@link Mesh} and {@link Transport} (the same number of
 * devices, ring capacity and queues on every rank). A device of another host is addressed by its rank and its device
 * id there; a global address ({@link dev.overlap.core.GlobalAddress}) keeps its meaning within that rank.
 *
 * <pre>{@code
 * try (HostGroup group = HostGroup.builder(hosts, rank).join();
 *      Mesh mesh = Mesh.builder().devices(2).build();
 *      Transport transport = Transport.builder().mesh(mesh).progressThread(true).build()) {
 *     transport.registerHandler(0, QUEUE, ItemType.INT, handler);    // as in one process
 *     try (HostTransport hosts = HostTransport.builder(group, transport).build()) {   // collective
 *         HostEndpoint ep = hosts.newEndpoint(0);
 *         ep.offerBlocking(1, 0, QUEUE, ItemType.INT, items, 0, n);     // rank 1's device 0, its handler
 *         ep.atomic(1, RemoteAtomic.INT_MIN, address, 3);
 *         ep.quiet();                                                    // everything above is applied on rank 1
 *     }
 * }
 * }</pre>
 *
 * <p><b>How it travels.</b> Each rank sends to each peer through one Aeron publication on a stream of its own
 * ({@link DataWire#STREAM_ID}), beside the group's, on the group's Aeron client and media driver, and receives on one
 * subscription at its endpoint in the host file. A {@link HostEndpoint} writes a message that fits a frame straight
 * into the publication's log with {@code tryClaim}, a larger one (up to {@link #maxMessageBytes()}) with
 * {@code offer}, which Aeron fragments; Aeron's publication is safe for several senders, so the media driver's sender
 * is the only sending agent. A receiver thread of this transport (an Agrona agent) reassembles the messages and
 * applies each through an {@link Endpoint} of the local transport that stands for the sending rank: a batch is
 * claimed into the destination device's inbox ({@code tryClaim} of an aggregator), so the device's registered
 * {@link dev.overlap.transport.BatchHandler} receives it as any other batch (its {@code sender} is that endpoint's
 * id); puts, atomics, gets and fetching atomics are that endpoint's own operations, so they obey the local
 * transport's ordering and direct policy; replies go back as messages. Everything one host endpoint sends to one
 * rank takes effect there in the order sent (one Aeron stream, one applying endpoint per sending rank).
 *
 * <p><b>Completion.</b> The receiver notes, after each poll, the stream position it has taken from each peer and
 * the local endpoint's ring messages up to it ({@link Endpoint#ringMessagesSent}); once the destination inboxes have
 * applied them it reports the position back (an {@code APPLIED} message). {@link HostEndpoint#quiet()} waits until
 * the position reported by every rank it sent to has reached the end of its last message there: everything it sent
 * has then been applied. When a destination inbox is not drained by anyone else, the receiver drains it itself
 * while it waits (the UPC helper's job), so {@code quiet()} never depends on the destination's workers.
 *
 * <p><b>Back-pressure and failure.</b> A full destination inbox stops the receiver (it drains that inbox itself
 * meanwhile); Aeron's flow control then holds the senders, whose {@code tryOffer} answers
 * {@link dev.overlap.core.OfferResult#BACK_PRESSURED} (or {@code ADMIN_ACTION}) with nothing sent, and whose
 * blocking forms wait. Nothing is lost or duplicated: a message is applied once, in order, or (the sender having
 * been told it was not taken) not at all. A publication that finds its peer's receiver gone answers
 * {@code NOT_CONNECTED} and records the peer as failed in the group; from then on every wait of this transport
 * throws the group's {@link PeerFailedException} naming the rank, as does every wait once the group detected a
 * failure (image loss, silence past the peer timeout).
 *
 * <p><b>Resources.</b> Per rank: one receiver thread, one publication per peer and one subscription on the group's
 * Aeron client, and one endpoint of the local transport per peer (count them in the local transport's
 * {@link Transport.Builder#maxEndpoints maxEndpoints}: its default leaves room for 16).
 *
 * <p><b>Lifetime.</b> {@link Builder#build()} and {@link #close()} are collective. The build checks that the ranks'
 * settings agree, connects every publication and meets the others at a group barrier, so no rank sends before every
 * receiver runs. Close once this rank's endpoints are done (after their {@code quiet()}): it tells every peer it is
 * done and waits, at most the peer timeout, until every peer said the same (so what they sent has been received and
 * handed to the local inboxes, whose transport applies it), then stops the receiver and closes the publications.
 * The host transport is a {@linkplain Transport#addDependent dependent} of the local transport (so of the mesh) and
 * attached to the group: closing any of them closes it first, so its receiver has stopped before the inboxes it
 * delivers to go. After the close a {@code tryOffer} answers {@code CLOSED} and every other operation throws an
 * {@link IllegalStateException} naming the transport.
 *
 * <p>Thread-safety: {@link #newEndpoint} and {@link #close()} may be called from any thread; endpoints are
 * single-threaded. Handlers must not make blocking sends across hosts (the receiver may be the thread running them).
 */
public final class HostTransport implements AutoCloseable {
    /** Most host endpoints one transport creates. */
    public static final int MAX_ENDPOINTS = 1024;

    private final HostGroup group;
    private final GroupState state;
    private final Transport transport;
    private final Mesh mesh;
    private final int rank;
    private final int ranks;
    private final int devices;
    private final int memoryPerDevice;
    private final int maxMessageBytes;
    private final long fingerprint;
    private final Publication[] publications;
    private final Subscription subscription;
    private final Endpoint[] forwarders;
    private final AtomicReferenceArray<HostEndpoint> endpoints = new AtomicReferenceArray<>(MAX_ENDPOINTS);
    /** By rank: the stream position up to which that rank has applied what this rank sent it (its last report). */
    private final AtomicLongArray appliedThrough;
    /** By rank: 1 once its DONE arrived. */
    private final AtomicLongArray done;
    private final ErrorHandler errorHandler;
    private AgentThread receiver;
    private int endpointCount;
    private volatile boolean closed;

    private HostTransport(final Builder b) {
        this.group = b.group;
        this.state = group.state();
        this.transport = b.transport;
        this.mesh = transport.mesh();
        this.rank = group.rank();
        this.ranks = group.ranks();
        this.devices = transport.deviceCount();
        this.memoryPerDevice = mesh.memoryPerDevice();
        this.fingerprint = group.fingerprint();
        this.errorHandler = b.errorHandler;
        this.appliedThrough = new AtomicLongArray(ranks);
        this.done = new AtomicLongArray(ranks);
        this.publications = new Publication[ranks];
        this.forwarders = new Endpoint[ranks];
        final int ringMessage = AggregatorConfig.largestBatch(transport.inbox(0).ringCapacity());
        Subscription sub = null;
        try {
            final Aeron aeron = group.aeron();
            final HostFile hosts = group.hosts();
            sub = aeron.addSubscription(HostGroup.channel(hosts.member(rank), b.termLength), DataWire.STREAM_ID);
            for (int r = 0; r < ranks; r++) {
                if (r != rank) {
                    publications[r] = aeron.addPublication(HostGroup.channel(hosts.member(r), b.termLength),
                        DataWire.STREAM_ID);
                }
            }
            this.subscription = sub;
            final int aeronMax = ranks > 1 ? publications[rank == 0 ? 1 : 0].maxMessageLength() : ringMessage;
            // a message must fit one Aeron message and, as a batch, one record of the destination inbox's ring
            this.maxMessageBytes = Math.min(aeronMax, ringMessage + DataWire.ITEMS_OFFSET
                - dev.overlap.transport.MessageFormat.BATCH_HEADER_LENGTH);
            awaitConnected(Waits.deadline(b.connectTimeoutNanos, TimeUnit.NANOSECONDS));
            for (int r = 0; r < ranks; r++) {
                if (r != rank) {
                    forwarders[r] = transport.newEndpoint(0);
                }
            }
            receiver = AgentThread.start(new HostReceiver(this, transport, forwarders, subscription, publications,
                    ringMessage), idle(), e -> errorHandler.onError(e), null, "overlap-hosts-data-r" + rank);
            group.attach(this);
            transport.addDependent(this);
            group.barrier(); // every rank's receiver runs before anyone sends
        } catch (final RuntimeException | Error e) {
            closed = true;
            release();
            CloseHelper.quietClose(sub);
            group.detach(this);
            transport.removeDependent(this);
            throw e;
        }
    }

    /**
     * @param group     this rank's host group (open)
     * @param transport this rank's transport over its mesh (open; the same device count, ring capacity and queues
     *                  on every rank)
     * @return a builder
     */
    public static Builder builder(final HostGroup group, final Transport transport) {
        return new Builder(group, transport);
    }

    private void awaitConnected(final long deadline) {
        final IdleStrategy idle = idle();
        while (true) {
            checkFailure();
            final List<Integer> missing = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                if (r != rank && !publications[r].isConnected()) {
                    missing.add(r);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            if (Thread.interrupted()) {
                throw Waits.interrupted("the publications of " + this + " to connect");
            }
            if (Waits.remaining(deadline) <= 0) {
                throw new IllegalStateException("the publications of " + this + " to ranks " + missing + " did not "
                    + "connect in time (does every rank build its HostTransport?)");
            }
            idle.idle();
        }
    }

    /** The backoff of the transport's waits and of its receiver: spin, yield, then park up to 100 us. */
    static IdleStrategy idle() {
        return new BackoffIdleStrategy(64, 64, 1_000, 100_000);
    }

    // ---------------------------------------------------------------------------------------------- API

    /**
     * @param homeDevice a device of this rank whose inbox the endpoint drains while it waits (so that two ranks
     *                   sending to each other from their devices' threads never wait on each other)
     * @return a new endpoint, for one thread at a time
     * @throws IllegalStateException     if closed, or {@value #MAX_ENDPOINTS} endpoints were created
     * @throws IndexOutOfBoundsException if {@code homeDevice} is not a device
     */
    public synchronized HostEndpoint newEndpoint(final int homeDevice) {
        checkOpen();
        if (homeDevice < 0 || homeDevice >= devices) {
            throw new IndexOutOfBoundsException("home device " + homeDevice + " does not exist: this rank has devices"
                + " 0.." + (devices - 1));
        }
        if (endpointCount == MAX_ENDPOINTS) {
            throw new IllegalStateException(this + " has created its " + MAX_ENDPOINTS + " endpoints");
        }
        final HostEndpoint ep = new HostEndpoint(this, endpointCount, homeDevice);
        endpoints.set(endpointCount++, ep);
        return ep;
    }

    /** @return this rank */
    public int rank() {
        return rank;
    }

    /** @return the ranks of the group */
    public int ranks() {
        return ranks;
    }

    /** @return devices per rank */
    public int devicesPerRank() {
        return devices;
    }

    /** @return the largest message one send carries (header included): larger batches and puts are split */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    /** @return true once {@link #close()} began */
    public boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------------------------------------- internals

    HostGroup group() {
        return group;
    }

    GroupState state() {
        return state;
    }

    Transport transport() {
        return transport;
    }

    long fingerprint() {
        return fingerprint;
    }

    int memoryPerDevice() {
        return memoryPerDevice;
    }

    Publication publication(final int r) {
        return publications[r];
    }

    HostEndpoint endpointAt(final int index) {
        return index >= 0 && index < MAX_ENDPOINTS ? endpoints.get(index) : null;
    }

    /** Receiver: rank {@code r} reported everything up to {@code position} applied. */
    void applied(final int r, final long position) {
        if (position > appliedThrough.getPlain(r)) {
            appliedThrough.setRelease(r, position);
        }
    }

    /** @return the stream position up to which rank {@code r} has applied this rank's messages (acquire) */
    long appliedThrough(final int r) {
        return appliedThrough.getAcquire(r);
    }

    /** Receiver: rank {@code r} sends nothing more. */
    void doneFrom(final int r) {
        done.setRelease(r, 1);
    }

    void reportError(final Throwable t) {
        errorHandler.onError(t);
    }

    /** @throws PeerFailedException if the group recorded a failure */
    void checkFailure() {
        final GroupState.Failure f = state.failure();
        if (f != null) {
            throw new PeerFailedException(f.exception);
        }
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    /** @return the exception for a send to {@code r} that found its receiver gone (recording it as failed) */
    PeerFailedException peerGone(final int r, final String what) {
        if (state.hasLeft(r)) {
            return new PeerFailedException(r, "left the group (closed it) while rank " + rank + " sends to it ("
                + what + ")");
        }
        return new PeerFailedException(state.fail(r, "its receiver at " + group.hosts().member(r).endpoint()
            + " is gone (the publication of " + this + " to it is no longer connected)").exception);
    }

    // ---------------------------------------------------------------------------------------------- close

    /**
     * Collective: says DONE to every peer, waits (at most the peer timeout, less after a failure) for theirs, then
     * stops the receiver and closes the publications and the subscription. Idempotent; an interrupt does not cut it
     * short (the status is kept).
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        final boolean interrupted = Thread.interrupted();
        try {
            if (!group.isClosed() && state.failure() == null) {
                sayDone();
            }
        } finally {
            release();
            group.detach(this);
            transport.removeDependent(this);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void sayDone() {
        final long deadline = Waits.deadline(group.peerTimeoutNanos(), TimeUnit.NANOSECONDS);
        final UnsafeBuffer msg = new UnsafeBuffer(new byte[Wire.HEADER_LENGTH]);
        final int length = Wire.header(msg, DataWire.DONE, rank, fingerprint);
        final IdleStrategy idle = idle();
        for (int r = 0; r < ranks; r++) {
            if (r == rank || state.hasLeft(r)) {
                continue;
            }
            long result;
            while ((result = publications[r].offer(msg, 0, length)) == Publication.BACK_PRESSURED
                || result == Publication.ADMIN_ACTION) {
                if (Waits.remaining(deadline) <= 0 || state.failure() != null) {
                    return;
                }
                idle.idle();
            }
        }
        idle.reset();
        for (int r = 0; r < ranks; r++) {
            while (r != rank && done.getAcquire(r) == 0 && !state.hasLeft(r) && state.failure() == null
                && Waits.remaining(deadline) > 0) {
                idle.idle();
            }
        }
    }

    private void release() {
        try {
            if (receiver != null) {
                receiver.close();
            }
        } finally {
            for (final Endpoint f : forwarders) {
                if (f != null) {
                    try {
                        f.close();
                    } catch (final IllegalStateException transportClosedFirst) {
                        // the local transport closed first: nothing of this endpoint is left to flush
                    }
                }
            }
            CloseHelper.quietCloseAll((AutoCloseable[])publications);
            CloseHelper.quietClose(subscription);
        }
    }

    @Override
    public String toString() {
        return "HostTransport{rank " + rank + " of " + ranks + ", " + devices + " devices per rank"
            + (closed ? ", closed" : "") + "}";
    }

    // ---------------------------------------------------------------------------------------------- builder

    /** Validating builder; see {@link HostTransport#builder}. Not thread-safe. */
    public static final class Builder {
        private final HostGroup group;
        private final Transport transport;
        private int termLength = 1 << 20;
        private long connectTimeoutNanos = TimeUnit.SECONDS.toNanos(30);
        private ErrorHandler errorHandler = t -> {
            System.err.println("overlap host transport receiver: " + t);
            t.printStackTrace();
        };

        private Builder(final HostGroup group, final Transport transport) {
            this.group = Objects.requireNonNull(group, "group");
            this.transport = Objects.requireNonNull(transport, "transport");
        }

        /**
         * @param bytes the Aeron term length of each publication: a power of two in 64 KiB .. 1 GiB (the largest
         *              message is an eighth of it); default 1 MiB
         * @return this builder
         */
        public Builder termLength(final int bytes) {
            if (bytes < 65536 || bytes > (1 << 30) || Integer.bitCount(bytes) != 1) {
                throw new IllegalArgumentException("termLength must be a power of two in 65536.." + (1 << 30)
                    + " bytes, was " + bytes);
            }
            this.termLength = bytes;
            return this;
        }

        /**
         * @param timeout how long the build waits for its publications to connect, 1 ms .. 1 h
         * @param unit    its unit
         * @return this builder
         */
        public Builder connectTimeout(final long timeout, final TimeUnit unit) {
            final long nanos = unit.toNanos(timeout);
            if (nanos < TimeUnit.MILLISECONDS.toNanos(1) || nanos > TimeUnit.HOURS.toNanos(1)) {
                throw new IllegalArgumentException("connectTimeout must be in 1 ms..1 h, was " + timeout + " " + unit);
            }
            this.connectTimeoutNanos = nanos;
            return this;
        }

        /**
         * @param handler receives what the receiver thread meets while applying a message (a handler's exception, a
         *                message for a device or address that does not exist); the message counts as consumed
         * @return this builder
         */
        public Builder errorHandler(final ErrorHandler handler) {
            this.errorHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Builds this rank's part (collective: every rank of the group builds one, with the same settings).
         *
         * @return the transport, its receiver running and every rank's reachable
         * @throws IllegalArgumentException if the transport has no mesh, or the group or transport is closed
         * @throws IllegalStateException    if the group carries a host transport already, the ranks' settings differ
         *                                  (naming them), or a publication does not connect within the connect
         *                                  timeout
         * @throws PeerFailedException      if a rank failed meanwhile
         */
        public HostTransport build() {
            if (transport.mesh() == null) {
                throw new IllegalArgumentException("a host transport needs a transport over a mesh (" + transport
                    + " is standalone)");
            }
            if (transport.isClosed()) {
                throw new IllegalArgumentException(transport + " is closed");
            }
            if (group.isClosed()) {
                throw new IllegalArgumentException(group + " is closed");
            }
            group.checkAttachable(); // before the collectives below, which the other ranks would not join
            group.checkSame("HostTransport devices per rank", transport.deviceCount());
            group.checkSame("HostTransport ring capacity", transport.inbox(0).ringCapacity());
            group.checkSame("HostTransport maxQueues", transport.maxQueues());
            group.checkSame("HostTransport memory per device", transport.mesh().memoryPerDevice());
            group.checkSame("HostTransport termLength", termLength);
            return new HostTransport(this);
        }
    }
}
