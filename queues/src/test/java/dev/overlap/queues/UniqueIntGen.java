package dev.overlap.queues;

import org.jetbrains.lincheck.datastructures.ParameterGenerator;
import org.jetbrains.lincheck.datastructures.RandomProvider;

/**
 * Lincheck parameters 1, 2, 3, ... within each scenario (Lincheck resets generators after generating one): every
 * pushed item is distinct, so a pop's answer names the push it came from, and an item returned twice while
 * another is lost cannot pass as the right count of equal items.
 */
public final class UniqueIntGen implements ParameterGenerator<Integer> {
    private int next;

    /** The constructor Lincheck calls; both arguments are unused. */
    public UniqueIntGen(final RandomProvider random, final String configuration) {
    }

    @Override
    public Integer generate() {
        return ++next;
    }

    @Override
    public void reset() {
        next = 0;
    }
}
