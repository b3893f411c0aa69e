/**
 * Device inboxes over Agrona ring buffers, the batching aggregator (Atos), one-sided remote operations (put, get,
 * remote atomics; APEnet+/UPC) and the progress thread (the UPC helper).
 *
 * <ul>
 *   <li>{@link dev.overlap.transport.Transport}: the entry point, over a {@link dev.overlap.core.Mesh} or
 *       standalone over plain buffers; owns one {@link dev.overlap.transport.Inbox} per device.</li>
 *   <li>{@link dev.overlap.transport.Endpoint}: a single-threaded sending context (one per worker) with
 *       aggregators ({@link dev.overlap.transport.IntAggregator}, {@link dev.overlap.transport.LongAggregator})
 *       and remote operations; it drains its own inbox whenever it waits, so back-pressure cannot deadlock.</li>
 *   <li>{@link dev.overlap.transport.BatchHandler}: the allocation-free receiver of item batches.</li>
 *   <li>{@link dev.overlap.transport.MessageFormat}: the message layout.</li>
 *   <li>{@link dev.overlap.transport.TransportCounter}: observability and the exact counts that termination
 *       detection needs.</li>
 * </ul>
 *
 * <p>Every JVM that uses this package needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (Agrona).
 */
package dev.overlap.transport;
