package dev.overlap.queues;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The sequential specification of a {@link Publication#WINDOWED} queue, with exactly the publication lag that mode
 * documents and nothing more (checked by {@link ModelVerifier}).
 *
 * <p>A push is two or more steps: its <em>reservation</em> (it gets the next positions, or "full" when reserved,
 * unpopped positions leave no room; the block form reserves even past its capacity and keeps what fits), then one
 * <em>write</em> per window its positions touch, in order (the implementation counts each window's part into that
 * window's counter, in order). Steps of other operations may come between them: that is what a push "still
 * writing" is. Positions are the abstract queue's, computed here, not read from the queue.
 *
 * <p>A pop is one step. It may return the oldest entry only once that entry is written; it may answer "empty"
 * only when no entry is held, or when the window of the oldest entry holds a position not yet written (the
 * oldest's own or a later one): Publication's "only while a push that reserved before it, or in the same window,
 * is still writing" (a position before the oldest entry was popped, so it was written). A peek is a pop that
 * leaves the entry. A queue that hides an entry whose window is all written, for instance whenever some push in
 * a later window is running, fails against this model; the earlier test ("retry empty while any push runs")
 * accepted that.
 *
 * <p>Operations (by the test's method names): {@code offer(item)} and, for rings, {@code offerAll(a, b)} (all or
 * nothing, {@code Boolean}); for blocks {@code offerBatch(a, b)} (greedy, {@code Integer} pushed);
 * {@code poll()}, {@code peek()} (an item, or the configured "empty" answer).
 */
public class WindowedQueueModel implements RelaxedModel {
    /** A reserved position and its item; {@code written} once its push counted it. */
    record Entry(long position, Object item, boolean written) {
    }

    /** Positions {@code [from, to)} of one push in one window, to be written in one step. */
    record Portion(long from, long to) {
    }

    /** The queue's shape: ring (capacity bounds reserved, unpopped positions) or one-shot block. */
    record Shape(boolean ring, int capacity, int windowSize, Object empty) {
    }

    private final Shape shape;
    private final long reserved;
    private final long popped;
    private final List<Entry> entries;
    /** Per busy thread, the portions its push has still to write. */
    private final Map<Integer, List<Portion>> pending;

    protected WindowedQueueModel(final Shape shape) {
        this(shape, 0, 0, List.of(), Map.of());
    }

    private WindowedQueueModel(final Shape shape, final long reserved, final long popped, final List<Entry> entries,
        final Map<Integer, List<Portion>> pending) {
        this.shape = shape;
        this.reserved = reserved;
        this.popped = popped;
        this.entries = entries;
        this.pending = pending;
    }

    /** {@link CounterRingQueue}{@code (3, 2, WINDOWED)}: empty is {@code null}. */
    public static final class ObjectRing3Window2 extends WindowedQueueModel {
        public ObjectRing3Window2() {
            super(new Shape(true, 3, 2, null));
        }
    }

    /** {@link IntCounterRing}{@code (3, 2, WINDOWED)}: empty is {@code -1}. */
    public static final class IntRing3Window2 extends WindowedQueueModel {
        public IntRing3Window2() {
            super(new Shape(true, 3, 2, -1));
        }
    }

    /** {@link IntCounterQueue}{@code (4, 2, WINDOWED)} (block): empty is {@code -1}. */
    public static final class IntBlock4Window2 extends WindowedQueueModel {
        public IntBlock4Window2() {
            super(new Shape(false, 4, 2, -1));
        }
    }

    @Override
    public boolean busy(final int thread) {
        return pending.containsKey(thread);
    }

    @Override
    public List<RelaxedModel> step(final int thread, final String operation, final List<Object> arguments,
        final Object result) {
        if (busy(thread)) {
            return List.of(write(thread));
        }
        switch (operation) {
            case "offer":
                return reserve(thread, arguments, result, false);
            case "offerAll":
            case "offerBatch":
                return reserve(thread, arguments, result, operation.equals("offerBatch"));
            case "poll":
                return pop(result, true);
            case "peek":
                return pop(result, false);
            default:
                throw new IllegalArgumentException("no model of operation " + operation);
        }
    }

    private List<RelaxedModel> reserve(final int thread, final List<Object> items, final Object result,
        final boolean greedy) {
        final int n = items.size();
        final long first = reserved;
        final int kept;
        final long nextReserved;
        if (shape.ring()) {
            kept = reserved - popped + n <= shape.capacity() ? n : 0; // all or nothing
            nextReserved = reserved + kept;
        } else {
            kept = (int)Math.max(0, Math.min(n, shape.capacity() - first)); // a getAndAdd: past the end too
            nextReserved = reserved + n;
        }
        final Object expected = greedy ? (Object)kept : (Object)(kept == n);
        if (!expected.equals(result)) {
            return List.of();
        }
        final List<Entry> nextEntries = new ArrayList<>(entries);
        final List<Portion> portions = new ArrayList<>();
        for (int i = 0; i < kept; i++) {
            nextEntries.add(new Entry(first + i, items.get(i), false));
        }
        for (long p = first; p < first + kept; p = windowEnd(p)) {
            portions.add(new Portion(p, Math.min(first + kept, windowEnd(p))));
        }
        final Map<Integer, List<Portion>> nextPending = new TreeMap<>(pending);
        if (!portions.isEmpty()) {
            nextPending.put(thread, List.copyOf(portions));
        }
        return List.of(new WindowedQueueModel(shape, nextReserved, popped, List.copyOf(nextEntries),
            Map.copyOf(nextPending)));
    }

    private RelaxedModel write(final int thread) {
        final List<Portion> left = pending.get(thread);
        final Portion portion = left.get(0);
        final List<Entry> nextEntries = new ArrayList<>(entries.size());
        for (final Entry e : entries) {
            final boolean inPortion = e.position() >= portion.from() && e.position() < portion.to();
            nextEntries.add(inPortion ? new Entry(e.position(), e.item(), true) : e);
        }
        final Map<Integer, List<Portion>> nextPending = new TreeMap<>(pending);
        if (left.size() == 1) {
            nextPending.remove(thread);
        } else {
            nextPending.put(thread, List.copyOf(left.subList(1, left.size())));
        }
        return new WindowedQueueModel(shape, reserved, popped, List.copyOf(nextEntries), Map.copyOf(nextPending));
    }

    private List<RelaxedModel> pop(final Object result, final boolean remove) {
        if (Objects.equals(result, shape.empty())) {
            return entries.isEmpty() || oldestHidden() ? List.of(this) : List.of();
        }
        if (entries.isEmpty()) {
            return List.of();
        }
        final Entry oldest = entries.get(0);
        if (!oldest.written() || !Objects.equals(oldest.item(), result)) {
            return List.of();
        }
        if (!remove) {
            return List.of(this);
        }
        return List.of(new WindowedQueueModel(shape, reserved, popped + 1, List.copyOf(entries.subList(1,
            entries.size())), pending));
    }

    /** @return whether the window of the oldest entry holds a position not yet written */
    private boolean oldestHidden() {
        final long end = windowEnd(entries.get(0).position());
        for (final Entry e : entries) {
            if (e.position() >= end) {
                return false;
            }
            if (!e.written()) {
                return true;
            }
        }
        return false;
    }

    private long windowEnd(final long position) {
        return (position / shape.windowSize() + 1) * shape.windowSize();
    }

    @Override
    public boolean equals(final Object o) {
        if (!(o instanceof WindowedQueueModel)) {
            return false;
        }
        final WindowedQueueModel m = (WindowedQueueModel)o;
        return reserved == m.reserved && popped == m.popped && shape.equals(m.shape) && entries.equals(m.entries)
            && pending.equals(m.pending);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reserved, popped, entries, pending);
    }

    @Override
    public String toString() {
        return "reserved=" + reserved + " popped=" + popped + " entries=" + entries + " pending=" + pending;
    }
}
