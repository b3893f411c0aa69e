package dev.overlap.graph;

/**
 * Reports the progress of long loads and generations. {@link #none()} reports nothing; the command line uses a
 * console bar on standard error ({@link ConsoleProgress}) unless quiet or not on a terminal.
 *
 * <p>Thread-safety: implementations are thread-safe; a {@link Task} may be advanced from several threads (parallel
 * generators step it once per chunk, never per edge).
 */
public interface Progress {
    /** One tracked task; close it when done. */
    interface Task extends AutoCloseable {
        /** Advances by {@code n} units. */
        void stepBy(long n);

        /** Sets the position to {@code n} units. */
        void stepTo(long n);

        /** Ends the task (idempotent). */
        @Override
        void close();
    }

    /**
     * @param name what is being done, e.g. "kron:20 edges"
     * @param max  units of the whole task ({@code <= 0}: unknown)
     * @param unit name of a unit for display ("edges", "MiB"), and how many raw units make one displayed unit
     * @param unitSize raw units per displayed unit (e.g. {@code 1 << 20} for MiB of bytes)
     * @return a task to advance and close
     */
    Task start(String name, long max, String unit, long unitSize);

    /** @return a progress that shows nothing */
    static Progress none() {
        return NoProgress.INSTANCE;
    }
}

/** The silent progress. */
final class NoProgress implements Progress, Progress.Task {
    static final NoProgress INSTANCE = new NoProgress();

    @Override
    public Task start(final String name, final long max, final String unit, final long unitSize) {
        return this;
    }

    @Override
    public void stepBy(final long n) {
    }

    @Override
    public void stepTo(final long n) {
    }

    @Override
    public void close() {
    }
}
