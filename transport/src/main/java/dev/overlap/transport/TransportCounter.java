package dev.overlap.transport;

import dev.overlap.core.counters.CounterTypes;

/**
 * The transport's monotonic counters. Sender counters belong to an {@link Endpoint} (summed per device by
 * {@link Transport#counter(int, TransportCounter)}); receiver counters belong to a device's {@link Inbox}.
 *
 * <p>Each is an Agrona counter of the transport's {@link Transport#counters() counters store} (one per endpoint and
 * sender counter, one per inbox and receiver counter), labelled {@code <mesh> transport dev<d> endpoint <id>: <label>}
 * or {@code <mesh> transport dev<d> inbox: <label>}, with type id {@link #typeId()} and a key naming the device and the
 * endpoint id (-1 for an inbox), so another process reads them from the counters file ({@code overlap stat}).
 * Every counter has exactly one writer at a time (an endpoint's owning thread, or the holder of an inbox's drain
 * lock) and an Agrona counter slot of its own (128 bytes), so writers never share a cache line. Writes are release
 * stores, reads are acquire loads: a reader that sees a count also sees what the writer did before counting it.
 * Writers publish in batches, like an Aeron duty cycle: an inbox at the end of each drain; an endpoint on each
 * {@link Endpoint#poll()}, flush, quiet, close, wait round, and at least every 64 messages it sends, except
 * {@link #ITEMS_ENQUEUED}, which is always published before the message that carries the items is committed.
 *
 * <p>For termination detection: {@link #ITEMS_ENQUEUED} counts an item once it is in an aggregator (published by
 * the owner's next poll or flush, see {@link Aggregator}), {@link #ITEMS_FLUSHED} once its batch is committed to a
 * ring, {@link #ITEMS_DELIVERED} once the receiving handler has returned. Each item is counted enqueued before
 * flushed, and flushed before delivered. Summed over all devices, with every owner polling (idle), {@code enqueued ==
 * delivered} means no item is pending or in flight.
 */
public enum TransportCounter {
    /** Messages committed to rings (batches and ring-routed remote operations). */
    MESSAGES_SENT(true, 0, "messages sent"),
    /** Payload bytes of those messages (for a batch delivered by reference: its header and the items it references). */
    BYTES_SENT(true, 1, "bytes sent"),
    /** Items offered to aggregators (as of the owner's latest poll or flush). */
    ITEMS_ENQUEUED(true, 2, "items enqueued"),
    /** Items committed to rings in batches. */
    ITEMS_FLUSHED(true, 3, "items flushed"),
    /** Batches sent because they were full. */
    FLUSHES_SIZE(true, 4, "flushes (size)"),
    /** Batches sent because the oldest item waited long enough. */
    FLUSHES_WAIT(true, 5, "flushes (wait)"),
    /** Single-item batches sent in eager mode. */
    FLUSHES_EAGER(true, 6, "flushes (eager)"),
    /** Batches sent by an explicit flush. */
    FLUSHES_EXPLICIT(true, 7, "flushes (explicit)"),
    /** Batches sent by a close. */
    FLUSHES_CLOSE(true, 8, "flushes (close)"),
    /** Times a sender found a destination ring full and waited (draining its own inbox). */
    BACK_PRESSURE_RETRIES(true, 9, "back-pressure retries"),
    /** Remote operations (put, get, atomic) sent through a ring. */
    RING_OPS(true, 10, "ring remote ops"),
    /** Remote operations done directly on the destination's memory. */
    DIRECT_OPS(true, 11, "direct remote ops"),
    /** Direct operations that first waited for earlier ring messages to be applied (ordering fence). */
    FENCE_WAITS(true, 12, "fence waits"),
    /** Batches delivered by reference to the sender's buffer instead of copied into a ring (also counted as sent). */
    DIRECT_BATCHES(true, 13, "direct batches"),

    /** Messages applied by this inbox's drains. */
    MESSAGES_DELIVERED(false, 0, "messages delivered"),
    /** Payload bytes of those messages (counted as {@link #BYTES_SENT} counts them). */
    BYTES_DELIVERED(false, 1, "bytes delivered"),
    /** Items handed to batch handlers (counted after the handler returns). */
    ITEMS_DELIVERED(false, 2, "items delivered"),
    /** Drains that applied at least one message. */
    DRAINS(false, 3, "drains"),
    /** Of those, drains done by the progress thread. */
    HELPER_DRAINS(false, 4, "helper drains"),
    /** Messages whose handler threw (the message counts as applied; the exception reaches the drainer). */
    HANDLER_ERRORS(false, 5, "handler errors");

    /** How many sender counters there are (their slots run from 0). */
    static final int SENDER_COUNTERS = 14;
    /** How many receiver counters there are (their slots run from 0). */
    static final int RECEIVER_COUNTERS = 6;

    private final boolean sender;
    private final int slot;
    private final String label;

    TransportCounter(final boolean sender, final int slot, final String label) {
        this.sender = sender;
        this.slot = slot;
        this.label = label;
    }

    /** @return true for an endpoint (sender) counter, false for an inbox (receiver) counter */
    public boolean isSenderCounter() {
        return sender;
    }

    /** @return a short human-readable label */
    public String label() {
        return label;
    }

    /** @return its Agrona type id, {@code CounterTypes.TRANSPORT + ordinal()} (see {@link CounterTypes}) */
    public int typeId() {
        return CounterTypes.TRANSPORT + ordinal();
    }

    /** @return its index among the sender or among the receiver counters */
    int slot() {
        return slot;
    }
}
