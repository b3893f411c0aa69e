package dev.overlap.graph.gen;

import java.util.SplittableRandom;

/** Random permutations (Fisher-Yates). Stateless. */
final class Permutations {
    private Permutations() {
    }

    /** @return a uniformly random permutation of {@code 0..n-1} drawn from {@code rnd} */
    static int[] random(final int n, final SplittableRandom rnd) {
        final int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            final int j = rnd.nextInt(i + 1);
            final int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
