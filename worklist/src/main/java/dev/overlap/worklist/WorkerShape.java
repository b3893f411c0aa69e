package dev.overlap.worklist;

/**
 * How many tasks a worker takes per pop: the JVM analog of Atos' {@code launchThread}, {@code launchWarp} and
 * {@code launchCTA}. A worker reserves up to {@link #fetchSize()} tasks from its device's queue with one atomic and
 * runs the task function on each in turn; a larger fetch amortises the reservation and the termination counting
 * over more tasks, a smaller one balances load more finely. Immutable.
 */
public final class WorkerShape {
    /** Largest fetch size. */
    public static final int MAX_FETCH = 1 << 16;
    /** One task per pop (Atos {@code launchThread}). */
    public static final WorkerShape THREAD = new WorkerShape("thread", 1);
    /** 32 tasks per pop (Atos {@code launchWarp}). */
    public static final WorkerShape WARP = new WorkerShape("warp", 32);

    private final String name;
    private final int fetchSize;

    private WorkerShape(final String name, final int fetchSize) {
        this.name = name;
        this.fetchSize = fetchSize;
    }

    /**
     * A block of {@code fetchSize} tasks per pop (Atos {@code launchCTA} with its fetch size).
     *
     * @param fetchSize 1..{@value #MAX_FETCH}
     * @return the shape
     * @throws IllegalArgumentException outside that range
     */
    public static WorkerShape block(final int fetchSize) {
        if (fetchSize < 1 || fetchSize > MAX_FETCH) {
            throw new IllegalArgumentException("fetch size must be in 1.." + MAX_FETCH + ", was " + fetchSize);
        }
        return fetchSize == 1 ? THREAD : fetchSize == 32 ? WARP : new WorkerShape("block", fetchSize);
    }

    /** @return tasks reserved per pop */
    public int fetchSize() {
        return fetchSize;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof WorkerShape && ((WorkerShape)o).fetchSize == fetchSize;
    }

    @Override
    public int hashCode() {
        return fetchSize;
    }

    @Override
    public String toString() {
        return name + "(" + fetchSize + ")";
    }
}
