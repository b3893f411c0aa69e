package dev.overlap.bench.transport;

import dev.overlap.testing.UdpPorts;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.Header;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * For {@link HostTransportBenchmark}: raw Aeron, the engine under the host transport, as its ceiling. One
 * {@link ExclusivePublication} and one subscription on one channel ({@link Kind}: {@code aeron:udp} to 127.0.0.2, also
 * with an idle channel back, or {@code aeron:ipc}) with the host transport's term length, on the benchmark's media driver; a subscriber thread
 * polls with a {@link FragmentAssembler} (as the host transport's receiver does, {@value #FRAGMENT_LIMIT} fragments
 * per poll, the same idle strategy) and counts every message and its bytes. {@link #send} writes a message the way
 * {@code HostEndpoint} does: {@code tryClaim} and a copy into the log when it fits a frame, {@code offer} (Aeron
 * fragments it) otherwise, retrying on {@code BACK_PRESSURED} and {@code ADMIN_ACTION} with the idle strategy.
 */
final class RawAeronPair implements AutoCloseable {
    private static final int STREAM_ID = 1101;
    private static final int FRAGMENT_LIMIT = 64;

    private final Aeron aeron;
    private final ExclusivePublication publication;
    private final Subscription subscription;
    private final BufferClaim claim = new BufferClaim();
    private final IdleStrategy sendIdle = HostTransportBenchmark.hostIdle();
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final Thread subscriber;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private long sent;

    /** The channels a pair uses. */
    enum Kind {
        /** {@code aeron:ipc}. */
        IPC,
        /** {@code aeron:udp} to 127.0.0.2. */
        UDP,
        /**
         * {@code aeron:udp} to 127.0.0.2, and an idle channel back to 127.0.0.1 (a subscription and a publication
         * that carry nothing): the media driver then serves two receiving and two sending endpoints, the shape of
         * two host-transport ranks on one driver, whose reverse direction carries the receiver's reports.
         */
        UDP_BOTH_WAYS
    }

    /**
     * @param driverDir  the media driver's directory
     * @param kind       the channels
     * @param termLength the term length
     */
    RawAeronPair(final Path driverDir, final Kind kind, final int termLength) {
        final String channel = (kind == Kind.IPC ? "aeron:ipc?" : "aeron:udp?endpoint=127.0.0.2:"
            + UdpPorts.free("127.0.0.2") + "|") + "term-length=" + termLength;
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driverDir.toString()));
        try {
            subscription = aeron.addSubscription(channel, STREAM_ID);
            publication = aeron.addExclusivePublication(channel, STREAM_ID);
            if (kind == Kind.UDP_BOTH_WAYS) { // closed with the client
                final String back = "aeron:udp?endpoint=127.0.0.1:" + UdpPorts.free("127.0.0.1") + "|term-length="
                    + termLength;
                aeron.addSubscription(back, STREAM_ID);
                aeron.addExclusivePublication(back, STREAM_ID);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!publication.isConnected()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the raw publication on " + channel + " did not connect in 30 s");
                }
                Thread.onSpinWait();
                Thread.yield();
            }
        } catch (final RuntimeException e) {
            CloseHelper.quietClose(aeron);
            throw e;
        }
        final FragmentAssembler assembler = new FragmentAssembler(this::onMessage);
        subscriber = new Thread(() -> {
            final IdleStrategy idle = HostTransportBenchmark.hostIdle();
            try {
                while (running) {
                    idle.idle(subscription.poll(assembler, FRAGMENT_LIMIT));
                }
            } catch (final Throwable t) {
                failure = t;
            }
        }, "raw-aeron-subscriber");
        subscriber.setDaemon(true);
        subscriber.start();
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final Header header) {
        bytes.lazySet(bytes.get() + length); // one writer: this thread
        messages.lazySet(messages.get() + 1);
    }

    /** @return the largest message {@link #send} takes */
    int maxMessage() {
        return publication.maxMessageLength();
    }

    /**
     * Sends {@code length} bytes of {@code src} as one message, waiting on back-pressure.
     *
     * @throws IllegalStateException if the publication is not connected, closed or used up
     */
    void send(final DirectBuffer src, final int length) {
        sendIdle.reset();
        if (length <= publication.maxPayloadLength()) {
            long r;
            while ((r = publication.tryClaim(length, claim)) < 0) {
                retry(r);
            }
            claim.buffer().putBytes(claim.offset(), src, 0, length);
            claim.commit();
        } else {
            long r;
            while ((r = publication.offer(src, 0, length)) < 0) {
                retry(r);
            }
        }
        sent++;
    }

    private void retry(final long result) {
        if (result != Publication.BACK_PRESSURED && result != Publication.ADMIN_ACTION) {
            throw new IllegalStateException("the raw publication refused a message: " + Publication.errorString(result));
        }
        sendIdle.idle();
    }

    /** @return messages sent so far (sending thread) */
    long sent() {
        return sent;
    }

    /**
     * Waits (at most {@code seconds}) until the subscriber counted every message sent and its bytes.
     *
     * @param messageBytes the length of every message
     * @throws IllegalStateException naming the counts if they differ then, or if the subscriber failed
     */
    void awaitReceived(final int messageBytes, final long seconds) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        final IdleStrategy idle = HostTransportBenchmark.hostIdle();
        while (messages.get() < sent && failure == null && System.nanoTime() - deadline < 0) {
            idle.idle();
        }
        if (failure != null) {
            throw new IllegalStateException("the raw subscriber failed", failure);
        }
        final long m = messages.get();
        final long b = bytes.get();
        if (m != sent || b != sent * messageBytes) {
            throw new IllegalStateException("raw Aeron lost or duplicated messages: sent " + sent + " of "
                + messageBytes + " bytes, received " + m + " (" + b + " bytes) within " + seconds + " s");
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            subscriber.join(TimeUnit.SECONDS.toMillis(60));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        CloseHelper.closeAll(publication, subscription, aeron);
        if (subscriber.isAlive()) {
            throw new IllegalStateException("the raw subscriber did not stop within 60 s");
        }
    }
}
