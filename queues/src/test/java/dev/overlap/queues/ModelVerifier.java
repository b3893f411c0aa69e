package dev.overlap.queues;

import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.kotlinx.lincheck.util.ValueResult;
import org.jetbrains.kotlinx.lincheck.util.VoidResult;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A Lincheck {@link Verifier} for specifications that linearizability cannot state: a {@link RelaxedModel}, whose
 * operations take one or more steps and may have several outcomes. It searches for an order of all steps of all
 * operations such that
 * <ul>
 * <li>the steps of each operation come in its thread's program order, and all of them lie inside the operation's
 * run: every step of an operation that finished before another one started (Lincheck's happens-before clocks, the
 * same relation its linearizability checker uses) comes before every step of that other one;</li>
 * <li>every step is allowed by the model given the result the operation actually returned.</li>
 * </ul>
 * With one step per operation and one outcome per step this is exactly linearizability (Lincheck's own check);
 * more steps let the model say what may happen <em>during</em> an operation (a reservation that is not yet
 * written), more outcomes let it accept any of several answers (any element of a bag) without guessing.
 *
 * <p>Depth-first search over (steps taken per thread, model state), each pair visited once; Lincheck scenarios
 * are small (a few threads of a few operations), so this is instant.
 */
public final class ModelVerifier implements Verifier {
    private final Class<?> model;

    /** @param model a {@link RelaxedModel} class with a public no-argument constructor (the initial state) */
    public ModelVerifier(final Class<?> model) {
        if (!RelaxedModel.class.isAssignableFrom(model)) {
            throw new IllegalArgumentException(model + " is not a " + RelaxedModel.class.getSimpleName());
        }
        this.model = model;
    }

    @Override
    public boolean verifyResults(final ExecutionScenario scenario, final ExecutionResult results) {
        final RelaxedModel initial;
        try {
            initial = (RelaxedModel)model.getConstructor().newInstance();
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build the initial state of " + model, e);
        }
        return new Search(scenario, results).run(initial);
    }

    /** One verification: the scenario's actors and results per thread, and the states already explored. */
    private static final class Search {
        private final List<List<Actor>> actors;
        private final List<List<ResultWithClock>> results;
        private final Set<Visit> visited = new HashSet<>();

        Search(final ExecutionScenario scenario, final ExecutionResult results) {
            this.actors = scenario.getThreads();
            this.results = results.getThreadsResultsWithClock();
        }

        boolean run(final RelaxedModel initial) {
            return explore(new int[actors.size()], initial);
        }

        /** @param done operations completed (all steps taken) per thread */
        private boolean explore(final int[] done, final RelaxedModel state) {
            boolean finished = true;
            for (int t = 0; t < done.length; t++) {
                finished &= done[t] == actors.get(t).size();
            }
            if (finished) {
                return true;
            }
            if (!visited.add(new Visit(done, state))) {
                return false;
            }
            for (int t = 0; t < done.length; t++) {
                final int a = done[t];
                if (a == actors.get(t).size()) {
                    continue;
                }
                final boolean started = state.busy(t);
                if (!started && !mayStart(t, a, done)) {
                    continue;
                }
                final ResultWithClock r = results.get(t).get(a);
                if (r == null || r.getResult() == null) {
                    return false; // the run hung: Lincheck reports that itself
                }
                final Object value;
                final LincheckResult result = r.getResult();
                if (result instanceof ValueResult) {
                    value = ((ValueResult)result).getValue();
                } else if (result == VoidResult.INSTANCE) {
                    value = null;
                } else {
                    continue; // an exception (or a coroutine result) no model here allows
                }
                final Actor actor = actors.get(t).get(a);
                for (final RelaxedModel next : state.step(t, actor.getMethod().getName(), actor.getArguments(),
                    value)) {
                    final int[] after = next.busy(t) ? done : bump(done, t);
                    if (explore(after, next)) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** The first step of actor {@code a} of thread {@code t} may come only after every actor that ended before it began. */
        private boolean mayStart(final int t, final int a, final int[] done) {
            final int[] clock = results.get(t).get(a).getClockOnStart().getClock();
            for (int i = 0; i < done.length; i++) {
                if (done[i] < clock[i]) {
                    return false;
                }
            }
            return true;
        }

        private static int[] bump(final int[] done, final int t) {
            final int[] next = done.clone();
            next[t]++;
            return next;
        }
    }

    /** A node of the search: operations completed per thread and the model state. */
    private static final class Visit {
        private final int[] done;
        private final RelaxedModel state;
        private final int hash;

        Visit(final int[] done, final RelaxedModel state) {
            this.done = done.clone();
            this.state = state;
            this.hash = 31 * Arrays.hashCode(done) + state.hashCode();
        }

        @Override
        public boolean equals(final Object o) {
            return o instanceof Visit && Arrays.equals(done, ((Visit)o).done) && state.equals(((Visit)o).state);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
