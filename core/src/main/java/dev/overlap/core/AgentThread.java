package dev.overlap.core;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.ThreadFactory;

/**
 * One agent running under an Agrona {@link AgentRunner} on a thread of Overlap's (or the user's
 * {@link ThreadFactory}'s) making, with a {@link #close()} that returns only once that thread has ended.
 *
 * <p>Why not {@link AgentRunner#close()} alone: it returns as soon as the agent's {@code onClose} has run, while the
 * thread may still be finishing {@code run()} (and a thread that had not yet entered {@code run()} when the runner
 * was closed is still alive too). The agent touches nothing after {@code onClose}, but a caller told "close joins the
 * threads" must be able to rely on it, so this keeps the thread it made and joins it.
 *
 * <p>Thread-safety: {@link #close()} may be called from any thread, more than once; the other methods are
 * immutable reads.
 */
public final class AgentThread implements AutoCloseable {
    private final AgentRunner runner;
    private final Thread thread;

    private AgentThread(final AgentRunner runner, final Thread thread) {
        this.runner = runner;
        this.thread = thread;
    }

    /**
     * Starts {@code agent} under a runner on a new thread.
     *
     * @param agent   the duty cycle
     * @param idle    the runner's idle strategy
     * @param errors  where the runner reports what the agent throws
     * @param factory the user's thread factory, or null for a daemon thread named {@code name}
     * @param name    the thread's default name (see {@link ThreadFactories#newThread})
     * @return the running agent
     * @throws IllegalStateException if the factory returns null or a started thread (nothing is left running)
     */
    public static AgentThread start(final Agent agent, final IdleStrategy idle, final ErrorHandler errors,
        final ThreadFactory factory, final String name) {
        final AgentRunner runner = new AgentRunner(idle, errors, null, agent);
        final Thread thread = ThreadFactories.newThread(factory, runner, name);
        thread.start();
        return new AgentThread(runner, thread);
    }

    /** @return the thread the agent runs on */
    public Thread thread() {
        return thread;
    }

    /**
     * Stops the agent (its {@code onClose} runs on its thread) and waits until the thread has ended. An interrupt
     * while waiting does not cut the wait short (the caller is told the thread is gone); the interrupt status is
     * kept. Idempotent.
     */
    @Override
    public void close() {
        runner.close();
        if (Waits.joinUninterruptibly(thread)) {
            Thread.currentThread().interrupt();
        }
    }
}
