package dev.overlap.graph.solo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The over-relaxation factor's rule ({@link Relaxation}), fed L1 changes as the sweeps would report them. */
class RelaxationTest {
    private static final double EXACT = 1e-12;

    /** Young's factor for a Gauss-Seidel ratio {@code mu2} per sweep. */
    private static double young(final double mu2) {
        return 2 / (1 + Math.sqrt(1 - mu2));
    }

    @Test
    void theFirstTwoSweepsRunAtOneAndTheThirdTakesYoungsFactorFromTheirRatio() {
        final Relaxation r = new Relaxation();
        assertEquals(1, r.omega(), EXACT);
        assertEquals(1, r.next(1e-2), EXACT, "one change has no ratio");
        assertEquals(young(0.5), r.next(0.5e-2), EXACT, "a ratio of 0.5 at omega 1 is mu^2 = 0.5");
        assertEquals(young(0.5), r.omega(), EXACT);
    }

    @Test
    void atAnotherFactorTheRatioIsMappedBackToMuSquared() {
        final Relaxation r = new Relaxation();
        r.next(1);
        final double omega = r.next(0.5); // young(0.5), about 1.17
        // the ratio SOR at omega shows for mu^2 = 0.6: lambda solving (lambda + omega - 1)^2 = lambda omega^2 0.6
        final double b = 2 * (omega - 1) - omega * omega * 0.6;
        final double c = (omega - 1) * (omega - 1);
        final double lambda = (-b + Math.sqrt(b * b - 4 * c)) / 2;
        assertEquals(young(0.6), r.next(0.5 * lambda), 1e-9);
    }

    @Test
    void theFactorNeverShrinksAndStopsAtItsCap() {
        final Relaxation r = new Relaxation();
        r.next(1);
        final double first = r.next(0.6);
        assertEquals(first, r.next(0.6 * 0.01), EXACT, "a fast sweep does not lower it");
        final Relaxation slow = new Relaxation();
        slow.next(1);
        assertEquals(Relaxation.MAX, slow.next(0.99), EXACT, "young(0.99) is 1.82: capped");
    }

    @Test
    void aRatioThatSaysNothingLeavesTheFactorAsItIs() {
        final Relaxation r = new Relaxation();
        r.next(1);
        final double omega = r.next(0.5);
        assertEquals(omega, r.next(0), EXACT, "no change at all");
        assertEquals(omega, r.next(0), EXACT, "0 / 0");
        final Relaxation atOne = new Relaxation();
        atOne.next(1);
        assertEquals(1, atOne.next(2), EXACT, "growing changes at omega 1: Gauss-Seidel stays");
        assertEquals(young(0.5), atOne.next(1), EXACT, "and a later ratio still counts");
    }

    @Test
    void growingChangesAboveOneGoBackToGaussSeidelForGood() {
        final Relaxation r = new Relaxation();
        r.next(1);
        assertEquals(young(0.5), r.next(0.5), EXACT);
        assertEquals(1, r.next(0.6), EXACT, "the change grew at omega > 1");
        assertEquals(1, r.next(0.3), EXACT, "backed off for the rest of the run");
        assertEquals(1, r.next(0.1), EXACT);
    }
}
