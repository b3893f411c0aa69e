package dev.overlap.compat;

import dev.overlap.core.OfferResult;
import io.aeron.Publication;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Overlap's result codes ({@link OfferResult}, defined in the library without a dependency on Aeron) have the values
 * of Aeron's {@link Publication} codes, so that code written against Aeron reads an Overlap result the same way.
 * Here, in the lab, Aeron may be on the class path (test scope only; {@code ArchitectureTest} keeps it out of the
 * library).
 */
class OfferResultMatchesAeronTest {
    @Test
    void everyCodeHasAeronsValue() {
        assertEquals(Publication.NOT_CONNECTED, OfferResult.NOT_CONNECTED);
        assertEquals(Publication.BACK_PRESSURED, OfferResult.BACK_PRESSURED);
        assertEquals(Publication.ADMIN_ACTION, OfferResult.ADMIN_ACTION);
        assertEquals(Publication.CLOSED, OfferResult.CLOSED);
        assertEquals(Publication.MAX_POSITION_EXCEEDED, OfferResult.MAX_POSITION_EXCEEDED);
    }

    @Test
    void successIsNonNegativeAsInAeron() {
        // Aeron: "The new stream position, otherwise a negative error value": every code is below zero
        for (final long code : new long[] {Publication.NOT_CONNECTED, Publication.BACK_PRESSURED,
            Publication.ADMIN_ACTION, Publication.CLOSED, Publication.MAX_POSITION_EXCEEDED}) {
            assertEquals(false, OfferResult.isTaken(code), OfferResult.describe(code));
        }
    }
}
