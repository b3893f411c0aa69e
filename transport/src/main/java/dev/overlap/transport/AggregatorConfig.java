package dev.overlap.transport;

import java.util.concurrent.TimeUnit;

/**
 * How an aggregator batches (Atos' {@code BATCH_SIZE} and {@code WAIT_TIME}): a batch is sent when it holds
 * {@code batchBytes} (payload, {@value MessageFormat#BATCH_HEADER_LENGTH}-byte batch header included), or when its
 * oldest item has waited {@code waitPolls} calls of {@link Aggregator#poll()} (or {@link Endpoint#poll()}), or
 * {@code waitNanos} nanoseconds as seen by such a poll, whichever comes first; in eager mode every item is sent at
 * once as its own message. Validated on construction; checked against the destination ring when an aggregator is
 * created (a batch must fit one ring message, at most ring capacity / 8). Immutable; thread-safe.
 *
 * <pre>{@code
 * AggregatorConfig throughput = AggregatorConfig.builder().batchBytes(64 << 10).waitPolls(32).build();
 * AggregatorConfig latency = AggregatorConfig.eager();
 * }</pre>
 */
public final class AggregatorConfig {
    /** No time-based flush. */
    public static final long NO_WAIT_NANOS = Long.MAX_VALUE;

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

    /** @return eager mode: every item is its own message, sent by {@code offer} */
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
         *              at least room for one 8-byte item, at most ring capacity / 8 of the destination
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

        /** @param polls polls a pending item may wait before its batch is sent, at least 1 */
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
         */
        public Builder waitTime(final long time, final TimeUnit unit) {
            if (time <= 0) {
                throw new IllegalArgumentException("waitTime must be positive, was " + time + " " + unit);
            }
            this.waitNanos = unit.toNanos(time);
            return this;
        }

        /** @param eager send every item at once as its own message (batch settings are ignored) */
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
