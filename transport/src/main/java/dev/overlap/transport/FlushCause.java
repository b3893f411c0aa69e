package dev.overlap.transport;

/** Why an aggregator sent a batch; each cause has its own counter ({@link TransportCounter}). */
public enum FlushCause {
    /** The batch reached {@code batchBytes}. */
    SIZE,
    /** The oldest pending item waited {@code waitPolls} polls or {@code waitNanos} nanoseconds. */
    WAIT,
    /** Eager mode: every item is sent at once. */
    EAGER,
    /**
     * {@link Aggregator#flush()} or {@link Endpoint#flush()} was called, or a claimed batch was committed
     * ({@link BatchClaim#commit()}; pending items a claim sends ahead of itself count here too).
     */
    EXPLICIT,
    /** {@link Aggregator#close()}, {@link Endpoint#close()} or {@link Transport#close()}. */
    CLOSE
}
