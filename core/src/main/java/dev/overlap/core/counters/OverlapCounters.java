package dev.overlap.core.counters;

import dev.overlap.core.AlignedHeapBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where Overlap's counters live: an Agrona {@code CountersManager} that allocates them (a label, a
 * {@link CounterTypes type id}, a key naming device and endpoint or worker) and frees them. Three kinds:
 * <ul>
 *   <li>{@link #inMemory()}: private, in heap memory, growing as counters are allocated (the default);</li>
 *   <li>{@link #using(CountersManager)}: the user's own manager (e.g. one they already expose to their tools);</li>
 *   <li>{@link #file(Path)}: the process's {@link CountersFile} in a directory, which {@code overlap stat} and
 *   {@link CountersFileReader} read from another process. Every handle of one process on one directory shares the
 *   file; the last handle's {@link #close()} deletes it.</li>
 * </ul>
 * {@link #fromSystemProperties()} picks the file when {@value CountersFile#DIRECTORY_PROPERTY} is set, else memory.
 *
 * <p><b>Lifetimes.</b> The owner of a counter (a transport's endpoint or inbox, a worklist's worker) allocates it,
 * writes it from one thread at a time, and {@link #free frees} it when it closes, after the last write; reads of a
 * freed counter must not reach the manager any more (its slot may be reused): the owners record final values and
 * answer those (see {@code Transport}). No memory behind a counter is ever freed or unmapped explicitly: in-memory
 * buffers and the file's mapping go with the garbage collector, so a late access reads or writes live memory.
 *
 * <p>Thread-safety: {@link #allocate} and {@link #free} may be called from any thread; they hold the store's lock
 * (for a user's manager, its monitor: a user who allocates from it on other threads without that monitor should give
 * an Agrona {@code ConcurrentCountersManager}). {@link #close()} is idempotent.
 */
public final class OverlapCounters implements AutoCloseable {
    /** File stores by directory, shared by every handle of this process on that directory; guarded by itself. */
    private static final Map<Path, FileStore> FILES = new HashMap<>();

    private final Store store;
    private volatile boolean closed;

    private OverlapCounters(final Store store) {
        this.store = store;
    }

    /** @return a private in-memory store that grows as counters are allocated */
    public static OverlapCounters inMemory() {
        return new OverlapCounters(new MemoryStore());
    }

    /**
     * @param manager the user's counters manager; Overlap allocates and frees in it, never closes it
     * @return a handle on it
     */
    public static OverlapCounters using(final CountersManager manager) {
        return new OverlapCounters(new GivenStore(Objects.requireNonNull(manager, "manager")));
    }

    /**
     * @param directory the counters directory
     * @return a handle on this process's counters file in {@code directory}, created on first use with
     *         {@value CountersFile#CAPACITY_PROPERTY} counters (default {@value CountersFile#DEFAULT_CAPACITY})
     * @throws java.io.UncheckedIOException naming the file when it cannot be made
     */
    public static OverlapCounters file(final Path directory) {
        final Path dir = directory.toAbsolutePath().normalize();
        synchronized (FILES) {
            FileStore store = FILES.get(dir);
            if (store == null) {
                store = new FileStore(CountersFile.create(dir, capacity()));
                FILES.put(dir, store);
            }
            store.handles++;
            return new OverlapCounters(store);
        }
    }

    /**
     * @return {@link #file(Path)} in the directory {@value CountersFile#DIRECTORY_PROPERTY} names ({@code default}:
     *         {@link CountersFile#defaultDirectory()}) when the property is set, else {@link #inMemory()}
     */
    public static OverlapCounters fromSystemProperties() {
        final String dir = System.getProperty(CountersFile.DIRECTORY_PROPERTY);
        if (dir == null || dir.isBlank()) {
            return inMemory();
        }
        return file("default".equals(dir.trim()) ? CountersFile.defaultDirectory() : Paths.get(dir.trim()));
    }

    private static int capacity() {
        final String value = System.getProperty(CountersFile.CAPACITY_PROPERTY);
        if (value == null) {
            return CountersFile.DEFAULT_CAPACITY;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("-D" + CountersFile.CAPACITY_PROPERTY + "=" + value
                + ": expected a number of counters, 1.." + CountersFile.MAX_CAPACITY);
        }
    }

    /**
     * Allocates a counter, zeroed.
     *
     * @param typeId its type id ({@link CounterTypes})
     * @param label  its label (Agrona keeps the first {@value CountersReader#MAX_LABEL_LENGTH} characters)
     * @param device the device its key names
     * @param index  the endpoint id, worker index or -1 its key names
     * @return the counter
     * @throws IllegalStateException if this handle is closed, or a file or user's manager is full (naming its
     *                               capacity)
     */
    public AtomicCounter allocate(final int typeId, final String label, final int device, final int index) {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        return store.allocate(typeId, label, device, index);
    }

    /**
     * Frees a counter allocated here (Agrona's {@code CountersManager.free}); its slot may be reused at once, so the
     * caller must not read or write it afterwards. Idempotent per counter. Allowed after {@link #close()}.
     *
     * @param counter the counter
     */
    public void free(final AtomicCounter counter) {
        store.free(counter);
    }

    /** @return the counters file's path, or null for a store in memory or the user's manager */
    public Path file() {
        return store.file();
    }

    /**
     * @return an Agrona reader over the counters (for tools in this process), or null for the in-memory store, whose
     *         counters are spread over several buffers
     */
    public CountersReader reader() {
        return store.reader();
    }

    /** @return true once {@link #close()} ran */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes this handle: later allocations are refused; for a file, the last handle of the process deletes it.
     * Counters still allocated keep live memory behind them (see the class comment). Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        store.release();
    }

    @Override
    public String toString() {
        return "OverlapCounters{" + store + "}";
    }

    // ---------------------------------------------------------------------------------------------- stores

    /** A manager and the lock that guards it. */
    private abstract static class Store {
        abstract Object lock();

        abstract CountersManager managerFor(int counters);

        abstract String fullMessage();

        AtomicCounter allocate(final int typeId, final String label, final int device, final int index) {
            synchronized (lock()) {
                final CountersManager manager = managerFor(1);
                try {
                    return manager.newCounter(label, typeId, key -> {
                        key.putInt(CounterTypes.KEY_DEVICE_OFFSET, device);
                        key.putInt(CounterTypes.KEY_INDEX_OFFSET, index);
                    });
                } catch (final IllegalStateException full) {
                    throw new IllegalStateException(fullMessage() + " (" + full.getMessage() + ")", full);
                }
            }
        }

        void free(final AtomicCounter counter) {
            synchronized (lock()) {
                counter.close();
            }
        }

        Path file() {
            return null;
        }

        CountersReader reader() {
            return null;
        }

        void release() {
        }
    }

    /** In heap memory: segments of growing size, each with its own manager. */
    private static final class MemoryStore extends Store {
        private static final int FIRST_SEGMENT = 32;
        private static final int LARGEST_SEGMENT = 4096;
        /** Guarded by itself. */
        private final List<CountersManager> segments = new ArrayList<>();

        @Override
        Object lock() {
            return segments;
        }

        @Override
        CountersManager managerFor(final int counters) {
            final int n = segments.size();
            if (n > 0 && segments.get(n - 1).available() >= counters) {
                return segments.get(n - 1);
            }
            for (final CountersManager m : segments) { // a freed slot in an older segment
                if (m.available() >= counters) {
                    return m;
                }
            }
            final int size = Math.min(LARGEST_SEGMENT, FIRST_SEGMENT << Math.min(n, 7));
            // On the heap: no other process reads these, and heap memory is reclaimed by the collector that the
            // heap's own use runs (a direct buffer is only freed by a collection its small heap object rarely
            // causes: many short-lived transports, as the jcstress states are, then exhaust direct memory)
            final CountersManager m = new CountersManager(
                AlignedHeapBuffer.allocate(size * CountersReader.METADATA_LENGTH),
                AlignedHeapBuffer.allocate(size * CountersReader.COUNTER_LENGTH));
            segments.add(m);
            return m;
        }

        @Override
        String fullMessage() {
            return "in-memory counters full"; // never: a new segment is made
        }

        @Override
        public String toString() {
            synchronized (segments) {
                return "in memory, " + segments.size() + " segments";
            }
        }
    }

    /** One manager (the user's, or the file's); its monitor is the lock. */
    private static class GivenStore extends Store {
        final CountersManager manager;

        GivenStore(final CountersManager manager) {
            this.manager = manager;
        }

        @Override
        Object lock() {
            return manager;
        }

        @Override
        CountersManager managerFor(final int counters) {
            return manager;
        }

        @Override
        String fullMessage() {
            return "the counters manager given to Overlap is full: " + manager.capacity() + " counters";
        }

        @Override
        CountersReader reader() {
            return manager;
        }

        @Override
        public String toString() {
            return "the user's CountersManager";
        }
    }

    /** The process's counters file in one directory, shared by handles ({@link #handles}, under {@code FILES}). */
    private static final class FileStore extends GivenStore {
        private final CountersFile file;
        int handles;

        FileStore(final CountersFile file) {
            super(new CountersManager(file.metaDataBuffer(), file.valuesBuffer()));
            this.file = file;
        }

        @Override
        String fullMessage() {
            return file.path() + ": the counters file is full: " + manager.capacity() + " counters (raise -D"
                + CountersFile.CAPACITY_PROPERTY + ")";
        }

        @Override
        Path file() {
            return file.path();
        }

        @Override
        void release() {
            synchronized (FILES) {
                if (--handles == 0) {
                    FILES.remove(file.path().getParent());
                    file.delete();
                }
            }
        }

        @Override
        public String toString() {
            return file.path().toString();
        }
    }
}
