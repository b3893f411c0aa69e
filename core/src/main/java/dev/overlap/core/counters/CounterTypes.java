package dev.overlap.core.counters;

/**
 * The type ids of Overlap's Agrona counters, in one place. Overlap uses the range {@value #FIRST}..{@value #LAST},
 * away from Aeron's own type ids (below 1000) and the usual ranges of applications' counters, so that a user's
 * {@code CountersManager} can hold Overlap's counters beside theirs and a reader can tell them apart by type id.
 *
 * <table>
 * <caption>Type ids</caption>
 * <tr><th>type id</th><th>counter</th><th>one per</th><th>key</th></tr>
 * <tr><td>7000..7013</td><td>the transport's sender counters, {@code 7000 + TransportCounter.ordinal()}: messages
 * sent, bytes sent, items enqueued, items flushed, flushes by cause (size, wait, eager, explicit, close),
 * back-pressure retries, ring ops, direct ops, fence waits, direct batches</td><td>endpoint</td>
 * <td>home device, endpoint id</td></tr>
 * <tr><td>7014..7019</td><td>the transport's receiver counters, same rule: messages delivered, bytes delivered, items
 * delivered, drains, helper drains, handler errors</td><td>inbox</td><td>device, -1</td></tr>
 * <tr><td>7100..7104</td><td>the distributed worklist's counters, {@code 7100 + WorklistCounter.ordinal()}: tasks run,
 * local pushes, remote pushes, remote atomics, idle polls</td><td>worker</td><td>device, worker index</td></tr>
 * </table>
 *
 * <p>The key of every Overlap counter is two {@code int}s, little-endian: the device at {@link #KEY_DEVICE_OFFSET}
 * and the endpoint id, worker index or -1 at {@link #KEY_INDEX_OFFSET}. Stateless constants.
 */
public final class CounterTypes {
    /** The first type id Overlap uses. */
    public static final int FIRST = 7000;
    /** The last type id Overlap reserves. */
    public static final int LAST = 7199;
    /** Type id of the first transport counter: {@code TRANSPORT + TransportCounter.ordinal()}. */
    public static final int TRANSPORT = 7000;
    /** Type id of the first worklist counter: {@code WORKLIST + WorklistCounter.ordinal()}. */
    public static final int WORKLIST = 7100;
    /** Offset of the device ({@code int}) in a counter's key. */
    public static final int KEY_DEVICE_OFFSET = 0;
    /** Offset of the endpoint id, worker index or -1 ({@code int}) in a counter's key. */
    public static final int KEY_INDEX_OFFSET = 4;
    /** Bytes of an Overlap counter's key. */
    public static final int KEY_LENGTH = 8;

    private CounterTypes() {
    }

    /**
     * @param typeId a counter's type id
     * @return true if Overlap reserves it
     */
    public static boolean isOverlap(final int typeId) {
        return typeId >= FIRST && typeId <= LAST;
    }
}
