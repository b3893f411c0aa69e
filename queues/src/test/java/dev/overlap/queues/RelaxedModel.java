package dev.overlap.queues;

import java.util.List;

/**
 * A sequential specification for {@link ModelVerifier}: an immutable state of the abstract object, in which an
 * operation may take several steps (a push of a {@link Publication#WINDOWED} queue reserves, then writes, and other
 * threads' steps may come in between) and may have several allowed outcomes (a bag returns any element it holds).
 * The actual result of the operation picks the outcome, so no step needs to guess.
 *
 * <p>Implementations need a public no-argument constructor for the initial state, and {@code equals}/{@code
 * hashCode} over the whole state (the verifier remembers the states it has explored).
 */
public interface RelaxedModel {
    /**
     * Takes the next step of the operation {@code thread} is running.
     *
     * @param thread    the thread (Lincheck's index: 0 also runs the init and post parts)
     * @param operation the operation's method name
     * @param arguments its arguments
     * @param result    what it returned in the run being checked
     * @return the states this step may lead to; empty when the step cannot produce {@code result} here
     */
    List<RelaxedModel> step(int thread, String operation, List<Object> arguments, Object result);

    /** @return true while the operation {@code thread} started has steps left */
    boolean busy(int thread);
}
