package dev.overlap.transport;

import dev.overlap.core.AgentThread;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * One job: the transport's progress agents (the UPC helper, {@link ProgressAgent}): the optional progress thread, an
 * Agrona {@link AgentRunner} started with the transport, and the agents handed out by
 * {@link Transport#newProgressAgent()} for the caller's own duty cycle, which the close must wait out because it cannot
 * stop them.
 *
 * <p>Thread-safety: {@link #newAgent()} and {@link #awaitIdle()} from any thread (the agents handed out are a list
 * guarded by its own monitor); {@link #stopThread()} by the closing thread. The close and the agents meet in a
 * Dekker handshake on volatiles, as {@link #awaitIdle()} describes.
 */
final class ProgressAgents {
    private final Transport transport;
    private final Inbox[] inboxes;
    private final long helpAfterNanos;
    private final AgentThread runner;
    /** The agents of {@link #newAgent()}; guarded by itself. */
    private final List<ProgressAgent> external = new ArrayList<>();

    /**
     * @param idle    the progress thread's idle strategy, or null for no progress thread
     * @param name    the progress thread's default name (and its agent's role name)
     * @param factory the user's thread factory, or null for a daemon thread named {@code name}
     * @throws IllegalStateException if the factory returns null or a started thread
     */
    ProgressAgents(final Transport transport, final Inbox[] inboxes, final long helpAfterNanos,
        final IdleStrategy idle, final ErrorHandler errorHandler, final String name, final ThreadFactory factory) {
        this.transport = transport;
        this.inboxes = inboxes;
        this.helpAfterNanos = helpAfterNanos;
        if (idle != null) {
            this.runner = AgentThread.start(agent(name), idle, errorHandler, factory, name);
        } else {
            this.runner = null;
        }
    }

    private ProgressAgent agent(final String roleName) {
        return new ProgressAgent(transport, inboxes, helpAfterNanos, Inbox.DEFAULT_DRAIN_LIMIT, roleName);
    }

    /** @return true if the progress thread runs (until {@link #stopThread()}) */
    boolean hasThread() {
        return runner != null;
    }

    /** @return a new agent for the caller's duty cycle, which {@link #awaitIdle()} waits out */
    Agent newAgent() {
        final ProgressAgent agent = agent("overlap-progress");
        synchronized (external) {
            external.add(agent);
        }
        return agent;
    }

    /** Stops the progress thread, if any, and waits until it has ended. */
    void stopThread() {
        if (runner != null) {
            runner.close();
        }
    }

    /**
     * Waits until no agent of {@link #newAgent()} is inside {@code doWork()} (Dekker with the agents: an agent
     * announces itself, then reads the transport's {@code closing}/{@code closed}; the closer sets them, then reads
     * the announcements; both volatile, so one sees the other). An agent that enters later finds the transport
     * closing and ends its runner without touching an inbox.
     */
    void awaitIdle() {
        final ProgressAgent[] agents;
        synchronized (external) {
            agents = external.toArray(new ProgressAgent[0]);
        }
        for (final ProgressAgent a : agents) {
            while (a.isInDutyCycle()) {
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }
}
