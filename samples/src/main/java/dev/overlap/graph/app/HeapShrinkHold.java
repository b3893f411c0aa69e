package dev.overlap.graph.app;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * Keeps the heap from shrinking while it is held: sets HotSpot's manageable {@code MaxHeapFreeRatio} to 100 while
 * at least one hold is open, and puts back the value it found when the last one closes.
 *
 * <p><b>Why.</b> The launcher starts the graph apps with {@code -XX:MaxHeapFreeRatio=30}, so that the full
 * collections {@link AppRunner} asks for after the load and after the placement give the load's pages back to the
 * operating system. {@link AppRunner} also collects between runs that leave much heap behind, so that the runs'
 * garbage does not pile up into memory no single run needs. With the ratio at 30, each of those collections also
 * shrinks the heap to little more than the placed graph's: the next run then grows it again inside its timed part
 * (a G1 pause for each large array it allocates, a concurrent cycle on the cores the run uses, and a page fault for
 * every page the heap takes back). A hold over the runs keeps the pages the first run made resident, so every later
 * run reuses them: the peak resident memory is the same (each run grows the heap to the same size), and the runs no
 * longer pay for a shrink they undo.
 *
 * <p>A JVM without the HotSpot diagnostic bean, or whose {@code MaxHeapFreeRatio} cannot be set, gets holds that
 * change nothing.
 *
 * <p>Thread-safety: {@link #open} and {@link #close} may be called from any thread; the flag belongs to the whole JVM,
 * so the holds are counted and the first sets it, the last restores it. Closing a hold twice closes it once.
 */
final class HeapShrinkHold implements AutoCloseable {
    /** The HotSpot flag: the most free heap, in percent, that a full collection leaves before it shrinks the heap. */
    static final String FLAG = "MaxHeapFreeRatio";
    /** A ratio at which no collection shrinks the heap. */
    static final String NEVER_SHRINK = "100";
    private static final Object LOCK = new Object();
    /** Open holds; guarded by {@link #LOCK}. */
    private static int open;
    /** The value the first hold found, restored by the last; null when the flag could not be set. Guarded by LOCK. */
    private static String found;

    /** Whether this hold was closed; guarded by {@link #LOCK}. */
    private boolean closed;

    private HeapShrinkHold() {
    }

    /** @return a hold, open until closed: the heap does not shrink until every open hold is closed */
    static HeapShrinkHold open() {
        synchronized (LOCK) {
            if (open++ == 0) {
                found = set(NEVER_SHRINK);
            }
        }
        return new HeapShrinkHold();
    }

    /** Lets go of this hold; the last one to close restores the flag. */
    @Override
    public void close() {
        synchronized (LOCK) {
            if (closed) {
                return;
            }
            closed = true;
            if (--open == 0 && found != null) {
                set(found);
                found = null;
            }
        }
    }

    /** @return the flag's value now, or null when this JVM does not show it */
    static String current() {
        return exchange(null);
    }

    /**
     * @param value the flag's new value
     * @return its value before, or null when the flag could not be set (no such bean or flag, not writable, a value
     *         below {@code MinHeapFreeRatio})
     */
    private static String set(final String value) {
        return exchange(value);
    }

    /**
     * @param value the flag's new value, or null to only read it
     * @return its value before, or null when this JVM does not show it or the new value could not be set
     */
    private static String exchange(final String value) {
        try {
            final HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (bean == null) {
                return null;
            }
            final String before = bean.getVMOption(FLAG).getValue();
            if (value != null) {
                bean.setVMOption(FLAG, value);
            }
            return before;
        } catch (final IllegalArgumentException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }
}
