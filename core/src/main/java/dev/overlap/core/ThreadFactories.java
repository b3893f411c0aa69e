package dev.overlap.core;

import java.util.concurrent.ThreadFactory;

/**
 * How Overlap makes the threads it runs (device workers, a transport's progress thread, a region's transfer threads):
 * with the user's {@link ThreadFactory} when one was given (names, daemon flag, priority, an affinity hook that wraps
 * the Runnable are the user's), else as a daemon thread with Overlap's default name. Stateless; thread-safe.
 */
public final class ThreadFactories {
    private ThreadFactories() {
    }

    /**
     * @param factory the user's factory, or null
     * @param body    what the thread runs
     * @param name    the default name (of the daemon thread made without a factory; also names the thread in errors)
     * @return a new, unstarted thread that runs {@code body}
     * @throws IllegalStateException if the factory returns null or a thread that was started
     */
    public static Thread newThread(final ThreadFactory factory, final Runnable body, final String name) {
        if (factory == null) {
            final Thread t = new Thread(body, name);
            t.setDaemon(true);
            return t;
        }
        final Thread t = factory.newThread(body);
        if (t == null || t.getState() != Thread.State.NEW) {
            throw new IllegalStateException("the thread factory " + factory + " returned " + (t == null ? "null"
                : "a thread that was started (" + t.getName() + ")") + " for " + name + ": it must return a new, "
                + "unstarted thread that runs the given Runnable");
        }
        return t;
    }
}
