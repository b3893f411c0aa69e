package dev.overlap.transport;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * One job: an endpoint's sender counters ({@link TransportCounter}). The owner counts into a private array and
 * publishes it to its Agrona counters (one per sender counter, allocated by {@link TransportEndpoints}) in batches
 * (release stores of the counters that changed since the last publication, so an idle counter costs nothing): on
 * {@link #publishCounters()} (poll, flush, quiet, close, each wait round) and at least every {@value #PUBLISH_EVERY}
 * messages, like an Aeron duty cycle. {@link TransportCounter#ITEMS_ENQUEUED} alone is published at once, always before
 * the message that carries the items is committed, so a reader never sees an item delivered before it was enqueued.
 * Any thread reads the counters with acquire loads ({@link #published}) while they are allocated; the transport's
 * close records their final values and frees them ({@link TransportMemory#release()}).
 *
 * <p>The first of {@link Endpoint}'s superclasses (the JCTools field-layout idiom: {@code EndpointCounters},
 * {@link EndpointFence}, {@link EndpointRingSender}, {@code Endpoint}), so the send paths reach these fields with no
 * load beyond the endpoint itself; every method is final. The fields the owner writes on every send ({@code dirty},
 * {@code unpublishedMessages}) are the first after {@link EndpointPadding}'s 128 bytes.
 *
 * <p>Thread-safety: one writer, the endpoint's owning thread; readers of {@link #published} on any thread.
 */
abstract class EndpointCounters extends EndpointPadding {
    /** Messages sent between two publications of the sender counters, at most. */
    static final int PUBLISH_EVERY = 64;
    private static final int ENQUEUED_SLOT = TransportCounter.ITEMS_ENQUEUED.slot();

    private boolean dirty;
    private int unpublishedMessages;
    /** The owner's values of its sender counters; published to {@link #counters} in batches. */
    private final long[] local = new long[TransportCounter.SENDER_COUNTERS];
    /** The values last published, by slot (so that a publication stores only what changed). */
    private final long[] published = new long[TransportCounter.SENDER_COUNTERS];
    /** The Agrona counters, by slot. */
    private final AtomicCounter[] counters;
    private final AtomicCounter enqueued;

    EndpointCounters(final AtomicCounter[] counters) {
        this.counters = counters;
        this.enqueued = counters[ENQUEUED_SLOT];
    }

    /** Counts {@code delta} on {@code counter} (published with the next batch). */
    final void add(final TransportCounter counter, final long delta) {
        local[counter.slot()] += delta;
        dirty = true;
    }

    /** Counts enqueued items and publishes the count at once (release): before the items can be delivered. */
    final void addEnqueued(final long delta) {
        final long value = local[ENQUEUED_SLOT] + delta;
        local[ENQUEUED_SLOT] = value;
        enqueued.setRelease(value);
    }

    /** Counts a batch message of {@code length} payload bytes and {@code items} items, sent for {@code cause}. */
    final void countBatch(final int length, final int items, final FlushCause cause) {
        final long[] l = local;
        l[TransportCounter.MESSAGES_SENT.slot()]++;
        l[TransportCounter.BYTES_SENT.slot()] += length;
        l[TransportCounter.ITEMS_FLUSHED.slot()] += items;
        l[causeCounter(cause).slot()]++;
        messageCounted();
    }

    /** Counts one descriptor message that sends {@code batches} whole batches of {@code items} items by reference. */
    final void countBatchesByReference(final long bytes, final int items, final int batches) {
        final long[] l = local;
        l[TransportCounter.DIRECT_BATCHES.slot()] += batches;
        l[TransportCounter.MESSAGES_SENT.slot()]++;
        l[TransportCounter.BYTES_SENT.slot()] += bytes;
        l[TransportCounter.ITEMS_FLUSHED.slot()] += items;
        l[TransportCounter.FLUSHES_SIZE.slot()] += batches;
        messageCounted();
    }

    /** Counts a remote operation sent through a ring as a message of {@code length} payload bytes. */
    final void countRingOp(final int length) {
        final long[] l = local;
        l[TransportCounter.MESSAGES_SENT.slot()]++;
        l[TransportCounter.BYTES_SENT.slot()] += length;
        l[TransportCounter.RING_OPS.slot()]++;
        messageCounted();
    }

    private void messageCounted() {
        dirty = true;
        if (++unpublishedMessages >= PUBLISH_EVERY) {
            publishCounters();
        }
    }

    private static TransportCounter causeCounter(final FlushCause cause) {
        switch (cause) {
            case SIZE:
                return TransportCounter.FLUSHES_SIZE;
            case WAIT:
                return TransportCounter.FLUSHES_WAIT;
            case EAGER:
                return TransportCounter.FLUSHES_EAGER;
            case EXPLICIT:
                return TransportCounter.FLUSHES_EXPLICIT;
            default:
                return TransportCounter.FLUSHES_CLOSE;
        }
    }

    /** Publishes the sender counters (release stores) if any changed since the last publication. */
    final void publishCounters() {
        if (!dirty) {
            return;
        }
        dirty = false;
        unpublishedMessages = 0;
        final long[] l = local;
        final long[] p = published;
        for (int slot = 0; slot < l.length; slot++) {
            if (slot != ENQUEUED_SLOT && l[slot] != p[slot]) {
                p[slot] = l[slot];
                counters[slot].setRelease(l[slot]);
            }
        }
    }

    /**
     * @return the last published value of a sender counter (acquire load; any thread, while the counter is allocated:
     *         {@link TransportMemory#senderCounter} answers the final value once it is freed)
     */
    final long published(final TransportCounter counter) {
        return counters[counter.slot()].getAcquire();
    }

    /** @return the Agrona counters, by slot (for the close that frees them) */
    final AtomicCounter[] agronaCounters() {
        return counters;
    }
}
