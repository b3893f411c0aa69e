package dev.overlap.core;

/**
 * The result codes of Overlap's non-blocking offers, with the names and values of Aeron's
 * {@code io.aeron.Publication} ({@code NOT_CONNECTED} -1, {@code BACK_PRESSURED} -2, {@code ADMIN_ACTION} -3,
 * {@code CLOSED} -4, {@code MAX_POSITION_EXCEEDED} -5), so that code written against Aeron reads an Overlap result the
 * same way. The library defines the values itself (it does not depend on Aeron); a lab test asserts they equal
 * Aeron's.
 *
 * <p><b>The rule.</b> A non-blocking offer returns a {@code long} or an {@code int}: <em>non-negative means the item
 * (or items) was taken</em>, and the value says something the method documents (below); a negative value is one of
 * these codes and means nothing was taken. No code is ever an exception: a caller may retry on
 * {@link #BACK_PRESSURED} and {@link #ADMIN_ACTION}, must stop on {@link #CLOSED} and {@link #MAX_POSITION_EXCEEDED}.
 *
 * <table>
 * <caption>Which method returns which code</caption>
 * <tr><th>method</th><th>non-negative: taken, and the value is</th><th>BACK_PRESSURED</th><th>ADMIN_ACTION</th>
 *     <th>CLOSED</th><th>MAX_POSITION_EXCEEDED</th></tr>
 * <tr><td>{@code IntCounterRing.offer(item)}, {@code LongCounterRing.offer(item)}</td>
 *     <td>the new position: positions reserved up to and including the item ({@code reservedIndex()} just after)</td>
 *     <td>the ring is full</td><td>never</td><td>its own memory was freed</td><td>never</td></tr>
 * <tr><td>{@code IntCounterRing.offer(src, off, len)}, {@code offerAll(src, off, len)} (and the long ring's)</td>
 *     <td>items taken: 1 to {@code len} (a prefix; {@code offerAll}: {@code len}); 0 only for {@code len == 0}</td>
 *     <td>no item fits (offerAll: not all fit)</td><td>never</td><td>freed</td><td>never</td></tr>
 * <tr><td>{@code IntCounterQueue.offer(item)}</td>
 *     <td>the new position, as for the ring</td>
 *     <td>never</td><td>never</td><td>freed</td><td>the one-shot block is used up until {@code reset()}</td></tr>
 * <tr><td>{@code IntCounterQueue.offer(src, off, len)}</td>
 *     <td>items taken: 1 to {@code len} (a prefix); 0 only for {@code len == 0}</td>
 *     <td>never</td><td>never</td><td>freed</td><td>the block was used up before any item</td></tr>
 * <tr><td>{@code IntPriorityWorklist.push(item, key)}</td>
 *     <td>the band that took it: {@code NEAR} (0) or {@code FAR} (1)</td>
 *     <td>both bands are full</td><td>never</td><td>freed</td><td>never</td></tr>
 * <tr><td>{@code IntPriorityWorklist.pushAll(entries, n)}</td>
 *     <td>entries taken: 1 to {@code n}; 0 only for {@code n == 0}</td>
 *     <td>no entry fits</td><td>never</td><td>freed</td><td>never</td></tr>
 * <tr><td>{@code IntAggregator.tryOffer(item)}, {@code LongAggregator.tryOffer(item)}</td>
 *     <td>items pending in the aggregator afterwards (0 when the item's batch went out; the batch capacity when
 *     the batch it completed could not go out yet)</td>
 *     <td>the batch is full and the destination ring has no room for it now</td>
 *     <td>the aggregator is inside a blocking send on this thread (a handler run by that send's wait offered)</td>
 *     <td>the aggregator, its endpoint or its transport is closed</td><td>never</td></tr>
 * <tr><td>{@code IntAggregator.tryClaim(count, claim)}, {@code LongAggregator.tryClaim(count, claim)}</td>
 *     <td>items claimed ({@code count})</td>
 *     <td>the destination ring has no room for the batch now</td><td>as for {@code tryOffer}</td>
 *     <td>as for {@code tryOffer}</td><td>never</td></tr>
 * <tr><td>{@code HostEndpoint.tryOffer(rank, device, queue, type, src, off, count)} (module hosts, across hosts
 *     over Aeron)</td>
 *     <td>items sent ({@code count})</td>
 *     <td>Aeron's flow control holds the stream to that rank</td><td>Aeron's administration action</td>
 *     <td>the host endpoint or its transport is closed</td><td>the stream to that rank is used up</td></tr>
 * </table>
 *
 * <p>{@link #NOT_CONNECTED} is returned by {@code HostEndpoint.tryOffer} only, when the destination rank's receiver
 * is gone (the rank is then recorded as failed); within a host every device of a transport has an inbox for its whole
 * life, and an aggregator is bound to a registered handler when it is created.
 *
 * <p><b>Closed structures: the one place this is decided.</b> A code-returning non-blocking offer on a closed
 * transport, endpoint or aggregator, or on a queue whose own memory was freed, returns {@link #CLOSED} instead of
 * throwing, as Aeron's {@code offer} does: a producer can race into a shutdown legitimately, and a result lets it
 * stop without an exception. Every other method keeps the lifetime rule of the library: use after close or free
 * throws an {@link IllegalStateException} naming the closed object (the blocking offers, flushes, polls, claims'
 * {@code commit}, pops, sizes...). Wrong arguments always throw. Structures bound by another contract keep it: the
 * {@code java.util.Queue} and JCTools {@code MessagePassingQueue} methods of {@code CounterRingQueue} return
 * booleans.
 *
 * <p>Stateless; every method is thread-safe.
 */
public final class OfferResult {
    /** No one is there to take the offer (Aeron: no subscriber): a host endpoint's destination is gone; see above. */
    public static final int NOT_CONNECTED = -1;
    /** No room now (a full ring or queue); nothing was taken. Retry later, or use the blocking form. */
    public static final int BACK_PRESSURED = -2;
    /**
     * The offer cannot proceed for a reason other than room, and should be retried (Aeron: an administration action
     * such as a term rotation). Overlap returns it when the aggregator is in the middle of a blocking send on the
     * same thread (a handler that ran during that send's wait offered to it).
     */
    public static final int ADMIN_ACTION = -3;
    /** The structure is closed (or its memory freed); nothing was taken and nothing will be. */
    public static final int CLOSED = -4;
    /**
     * The structure can never take this offer again until it is reset (Aeron: the stream reached its maximum
     * position). Overlap returns it when a one-shot block ({@code IntCounterQueue}) is used up.
     */
    public static final int MAX_POSITION_EXCEEDED = -5;

    private OfferResult() {
    }

    /**
     * @param result what a non-blocking offer returned
     * @return true if the offer took its item (or items): the result is non-negative
     */
    public static boolean isTaken(final long result) {
        return result >= 0;
    }

    /**
     * @param result what a non-blocking offer returned
     * @return the code's name ({@code "BACK_PRESSURED"}), {@code "TAKEN(n)"} for a non-negative result, or
     *         {@code "UNKNOWN(n)"} for a negative value that is no code
     */
    public static String name(final long result) {
        if (result >= 0) {
            return "TAKEN(" + result + ")";
        }
        switch ((int)Math.max(result, Integer.MIN_VALUE)) {
            case NOT_CONNECTED:
                return "NOT_CONNECTED";
            case BACK_PRESSURED:
                return "BACK_PRESSURED";
            case ADMIN_ACTION:
                return "ADMIN_ACTION";
            case CLOSED:
                return "CLOSED";
            case MAX_POSITION_EXCEEDED:
                return "MAX_POSITION_EXCEEDED";
            default:
                return "UNKNOWN(" + result + ")";
        }
    }

    /**
     * A line for logs: the code's name, value and meaning.
     *
     * @param result what a non-blocking offer returned
     * @return e.g. {@code "BACK_PRESSURED (-2): no room now, nothing taken; retry later"} or {@code "TAKEN(12)"}
     */
    public static String describe(final long result) {
        final String name = name(result);
        if (result >= 0) {
            return name;
        }
        switch (name) {
            case "NOT_CONNECTED":
                return name + " (" + result + "): no one is there to take it, nothing taken";
            case "BACK_PRESSURED":
                return name + " (" + result + "): no room now, nothing taken; retry later";
            case "ADMIN_ACTION":
                return name + " (" + result + "): a send of the same sender is in progress, nothing taken; retry";
            case "CLOSED":
                return name + " (" + result + "): closed or freed, nothing taken";
            case "MAX_POSITION_EXCEEDED":
                return name + " (" + result + "): used up until reset, nothing taken";
            default:
                return name + ": not an offer result";
        }
    }
}
