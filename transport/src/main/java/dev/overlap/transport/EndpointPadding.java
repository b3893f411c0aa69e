package dev.overlap.transport;

/**
 * 128 bytes in front of an {@link Endpoint}'s fields (the {@code int} fills the gap after the object header, so the
 * JVM places every field of the subclasses, from {@link EndpointCounters} down, after the padding). An endpoint's owner
 * writes some of its fields on every send ({@code dirty}, {@code unpublishedMessages}); without the padding they could
 * share a cache line with the object allocated just before it, often another thread's endpoint or aggregator, and
 * every message would then move that line between the two threads' cores. Thread-safety: nothing to guard (no behaviour; the fields are never used).
 */
abstract class EndpointPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}
