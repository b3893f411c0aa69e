package dev.overlap.queues;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.verifier.LinearizabilityVerifier;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

/**
 * Lincheck budgets, overridable for a deep local run: {@code -Doverlap.lincheck.iterations} (scenarios per mode),
 * {@code -Doverlap.lincheck.invocations} (interleavings / runs per scenario), {@code -Doverlap.lincheck.threads},
 * {@code -Doverlap.lincheck.actors} (operations per thread). Defaults keep every Lincheck class to ~10-20 s.
 */
final class LincheckRuns {
    static final int ITERATIONS = Integer.getInteger("overlap.lincheck.iterations", 12);
    static final int INVOCATIONS = Integer.getInteger("overlap.lincheck.invocations", 500);
    static final int THREADS = Integer.getInteger("overlap.lincheck.threads", 3);
    static final int ACTORS = Integer.getInteger("overlap.lincheck.actors", 3);

    private LincheckRuns() {
    }

    static void modelCheck(final Class<?> test, final Class<?> spec) {
        modelCheck(test, spec, LinearizabilityVerifier.class);
    }

    /** Model checking with another verifier ({@link ModelVerifier} for a {@link RelaxedModel} {@code spec}). */
    static void modelCheck(final Class<?> test, final Class<?> spec, final Class<? extends Verifier> verifier) {
        new ModelCheckingOptions()
            .sequentialSpecification(spec)
            .verifier(verifier)
            .iterations(ITERATIONS)
            .invocationsPerIteration(INVOCATIONS)
            .threads(THREADS)
            .actorsPerThread(ACTORS)
            .actorsBefore(2)
            .actorsAfter(2)
            .check(test);
    }

    static void stress(final Class<?> test, final Class<?> spec) {
        stress(test, spec, LinearizabilityVerifier.class);
    }

    /** Stress with another verifier ({@link ModelVerifier} for a {@link RelaxedModel} {@code spec}). */
    static void stress(final Class<?> test, final Class<?> spec, final Class<? extends Verifier> verifier) {
        new StressOptions()
            .sequentialSpecification(spec)
            .verifier(verifier)
            .iterations(Math.max(1, ITERATIONS / 2))
            .invocationsPerIteration(INVOCATIONS * 4)
            .threads(THREADS)
            .actorsPerThread(ACTORS)
            .actorsBefore(2)
            .actorsAfter(2)
            .check(test);
    }
}
