package dev.overlap.transport;

import java.util.concurrent.TimeUnit;

/**
 * How an aggregator batches (Atos' {@code BATCH_SIZE} and {@code WAIT_TIME}): a batch is sent when it holds
 * {@code batchBytes} (payload, {@value MessageFormat#BATCH_HEADER_LENGTH}-byte batch header included), or when its
 * oldest item has waited {@code waitPolls} calls of {@link Aggregator#poll()} (or {@link Endpoint#poll()}), or
 * {@code waitNanos} nanoseconds as seen by such a poll, whichever comes first; in eager mode every item is sent at
 * once as its own message. Validated on construction; checked against the destination ring when an aggregator is
 * created: a batch is one ring message, so it must be at most {@link #largestBatch(int) largestBatch(ringCapacity)}
 * ({@link #smallestRing(int)} is the other direction). Immutable; thread-safe.
 *
 * <pre>{@code
 * AggregatorConfig throughput = AggregatorConfig.builder().batchBytes(64 << 10).waitPolls(32).build();
 * AggregatorConfig latency = AggregatorConfig.eager();
 * }</pre>
 */
public final class AggregatorConfig {
    /** No time-based flush. */
    public static final long NO_WAIT_NANOS = Long.MAX_VALUE;
    /**
     * How many times the largest message sent to it an inbox ring must hold: the ring is Agrona's many-to-one ring
     * buffer, which refuses a message longer than an eighth of its capacity ({@code maxMsgLength}). A batch is one
     * message, so a ring of {@code c} bytes takes batches of at most {@code c / 8} bytes, and a batch of {@code b}
     * bytes needs a ring of at least {@code 8 b}. This is the one statement of that rule: the transport, the
     * distributed worklist and the samples size rings and batches through {@link #largestBatch} and
     * {@link #smallestRing}.
     */
    public static final int RING_PER_BATCH = 8;

    private final int batchBytes;
    private final long waitPolls;
    private final long waitNanos;
    private final boolean eager;

    private AggregatorConfig(final Builder b) {
        this.batchBytes = b.batchBytes;
        this.waitPolls = b.waitPolls;
        this.waitNanos = b.waitNanos;
        this.eager = b.eager;
    }

    /** @return a builder: 4 KiB batches, flush after 32 polls, no time limit, not eager */
    public static Builder builder() {
        return new Builder();
    }

    /** @return eager mode: every item is its own message, sent by the offer that takes it */
    public static AggregatorConfig eager() {
        return builder().eager(true).build();
    }

    /**
     * @param batchBytes batch size
     * @param waitPolls  polls before a partial batch is sent
     * @return a batching configuration
     */
    public static AggregatorConfig batched(final int batchBytes, final long waitPolls) {
        return builder().batchBytes(batchBytes).waitPolls(waitPolls).build();
    }

    /**
     * @param ringCapacity an inbox ring's capacity in bytes
     * @return the largest message, so the largest batch (header included), such a ring accepts:
     *         {@code ringCapacity / }{@value #RING_PER_BATCH}
     */
    public static int largestBatch(final int ringCapacity) {
        return ringCapacity / RING_PER_BATCH;
    }

    /**
     * @param batchBytes a batch size in bytes, header included (or any message length)
     * @return the smallest valid inbox ring capacity that accepts it: the smallest power of two of at least
     *         {@value #RING_PER_BATCH} times {@code batchBytes}, and at least {@link Inbox#MIN_RING_CAPACITY}
     * @throws IllegalArgumentException if {@code batchBytes} is not positive or no ring is large enough (rings
     *                                  hold at most {@value Inbox#MAX_RING_CAPACITY} bytes)
     */
    public static int smallestRing(final int batchBytes) {
        final long need = (long)RING_PER_BATCH * batchBytes;
        if (batchBytes < 1 || need > Inbox.MAX_RING_CAPACITY) {
            throw new IllegalArgumentException("no inbox ring takes messages of " + batchBytes + " bytes: a ring "
                + "takes at most 1/" + RING_PER_BATCH + " of its capacity, and rings hold 1.."
                + Inbox.MAX_RING_CAPACITY + " bytes");
        }
        return (int)Math.max(Inbox.MIN_RING_CAPACITY, Long.highestOneBit(need - 1) << 1);
    }

    /** @return largest batch message payload, header included */
    public int batchBytes() {
        return batchBytes;
    }

    /** @return polls a pending item may wait */
    public long waitPolls() {
        return waitPolls;
    }

    /** @return nanoseconds a pending item may wait, or {@link #NO_WAIT_NANOS} */
    public long waitNanos() {
        return waitNanos;
    }

    /** @return true in eager mode */
    public boolean isEager() {
        return eager;
    }

    @Override
    public String toString() {
        return eager ? "AggregatorConfig{eager}" : "AggregatorConfig{batchBytes=" + batchBytes + ", waitPolls="
            + waitPolls + (waitNanos == NO_WAIT_NANOS ? "" : ", waitNanos=" + waitNanos) + "}";
    }

    /** Validating builder; not thread-safe. */
    public static final class Builder {
        private int batchBytes = 4096;
        private long waitPolls = 32;
        private long waitNanos = NO_WAIT_NANOS;
        private boolean eager;

        private Builder() {
        }

        /**
         * @param bytes largest batch payload including the {@value MessageFormat#BATCH_HEADER_LENGTH}-byte header;
         *              at least room for one 8-byte item, at most {@link #largestBatch} of the destination's ring
         * @return this builder
         */
        public Builder batchBytes(final int bytes) {
            if (bytes < MessageFormat.BATCH_HEADER_LENGTH + 8) {
                throw new IllegalArgumentException("batchBytes must be at least "
                    + (MessageFormat.BATCH_HEADER_LENGTH + 8) + " (an 8-byte batch header plus one item), was "
                    + bytes);
            }
            this.batchBytes = bytes;
            return this;
        }

        /**
         * @param polls polls a pending item may wait before its batch is sent, at least 1
         * @return this builder
         */
        public Builder waitPolls(final long polls) {
            if (polls < 1) {
                throw new IllegalArgumentException("waitPolls must be at least 1, was " + polls
                    + " (use eager mode to send every item at once)");
            }
            this.waitPolls = polls;
            return this;
        }

        /**
         * @param time longest time a pending item may wait, checked on each poll; positive
         * @param unit its unit
         * @return this builder
         */
        public Builder waitTime(final long time, final TimeUnit unit) {
            if (time <= 0) {
                throw new IllegalArgumentException("waitTime must be positive, was " + time + " " + unit);
            }
            this.waitNanos = unit.toNanos(time);
            return this;
        }

        /**
         * @param eager send every item at once as its own message (batch settings are ignored)
         * @return this builder
         */
        public Builder eager(final boolean eager) {
            this.eager = eager;
            return this;
        }

        /** @return the configuration */
        public AggregatorConfig build() {
            return new AggregatorConfig(this);
        }
    }
}
