package dev.overlap.graph.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/** Finds the {@link GraphAlgorithms} provider of an execution mode. Stateless; thread-safe. */
public final class Algorithms {
    private Algorithms() {
    }

    /**
     * @param mode {@code bsp}, {@code async} or {@code solo} (any case)
     * @return the provider
     * @throws IllegalArgumentException when no provider implements the mode (the message lists those found)
     */
    public static GraphAlgorithms forMode(final String mode) {
        final String m = mode.toLowerCase(Locale.ROOT);
        final List<String> known = new ArrayList<>();
        for (final GraphAlgorithms a : ServiceLoader.load(GraphAlgorithms.class, Algorithms.class.getClassLoader())) {
            if (a.mode().equals(m)) {
                return a;
            }
            known.add(a.mode());
        }
        throw new IllegalArgumentException("unknown mode '" + mode + "': available " + known);
    }
}
