package dev.overlap.queues;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.verifier.LinearizabilityVerifier;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

import java.util.ArrayList;
import java.util.List;

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

    /**
     * Model checking of a structure in an Agrona buffer (device memory, or any off-heap region). Lincheck 3.7 cannot
     * step into Agrona: its model checker fails inside {@code UnsafeBuffer} ({@code NoSuchFieldException:
     * SHOULD_BOUNDS_CHECK}) and cannot instrument {@code org.agrona.UnsafeApi} (a {@code VerifyError}, after which
     * the queues' counter accesses through {@link BufferCells} would be no switch points at all). So every method
     * of those classes is one atomic step: each is a single load, store or read-modify-write of one cell (the bulk
     * copies the queues do not use here aside), so the interleavings explored are those of the sequentially
     * consistent machine the model checker assumes anyway, with a switch point at every buffer access.
     *
     * @param scenarios scenarios checked first, before the random ones (a race the random ones may miss)
     */
    static void modelCheckOffHeap(final Class<?> test, final Class<?> spec, final Class<? extends Verifier> verifier,
        final List<Class<?>> atomicParts, final ExecutionScenario... scenarios) {
        final List<String> atomic = new ArrayList<>(List.of("org.agrona.concurrent.UnsafeBuffer",
            "org.agrona.AbstractMutableDirectBuffer", "org.agrona.UnsafeApi"));
        atomicParts.forEach(c -> atomic.add(c.getName()));
        final ModelCheckingOptions options = new ModelCheckingOptions()
            .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(atomic.toArray(new String[0])).allMethods()
                .treatAsAtomic())
            .sequentialSpecification(spec)
            .verifier(verifier)
            .iterations(ITERATIONS)
            .invocationsPerIteration(INVOCATIONS)
            .threads(THREADS)
            .actorsPerThread(ACTORS)
            .actorsBefore(2)
            .actorsAfter(2);
        for (final ExecutionScenario s : scenarios) {
            options.addCustomScenario(s);
        }
        options.check(test);
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
