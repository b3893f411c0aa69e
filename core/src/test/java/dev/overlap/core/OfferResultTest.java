package dev.overlap.core;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The result codes: negative and distinct, each with its name and meaning for logs, and the success rule. That they
 * equal Aeron's {@code Publication} values is checked where Aeron may be on the class path (integration-tests,
 * {@code OfferResultMatchesAeronTest}).
 */
class OfferResultTest {
    private static final List<Integer> CODES = List.of(OfferResult.NOT_CONNECTED, OfferResult.BACK_PRESSURED,
        OfferResult.ADMIN_ACTION, OfferResult.CLOSED, OfferResult.MAX_POSITION_EXCEEDED);

    @Test
    void everyCodeIsNegativeDistinctAndNamed() {
        final Set<String> names = new HashSet<>();
        for (final int code : CODES) {
            assertTrue(code < 0, "a code is negative: " + code);
            assertFalse(OfferResult.isTaken(code));
            final String name = OfferResult.name(code);
            assertTrue(names.add(name), "distinct: " + name);
            final String line = OfferResult.describe(code);
            assertTrue(line.startsWith(name + " (" + code + "): "), line);
            assertTrue(line.contains("nothing taken"), line);
        }
        assertEquals(List.of("NOT_CONNECTED", "BACK_PRESSURED", "ADMIN_ACTION", "CLOSED", "MAX_POSITION_EXCEEDED"),
            CODES.stream().map(OfferResult::name).collect(java.util.stream.Collectors.toList()));
    }

    @Test
    void aNonNegativeResultIsTaken() {
        for (final long taken : new long[] {0, 1, 42, Integer.MAX_VALUE, Long.MAX_VALUE}) {
            assertTrue(OfferResult.isTaken(taken));
            assertEquals("TAKEN(" + taken + ")", OfferResult.name(taken));
            assertEquals(OfferResult.name(taken), OfferResult.describe(taken));
        }
    }

    @Test
    void aNegativeValueThatIsNoCodeIsSaidToBeUnknown() {
        for (final long other : new long[] {-6, -100, Integer.MIN_VALUE, Integer.MIN_VALUE - 2L, Long.MIN_VALUE}) {
            assertFalse(OfferResult.isTaken(other));
            assertEquals("UNKNOWN(" + other + ")", OfferResult.name(other));
            assertEquals("UNKNOWN(" + other + "): not an offer result", OfferResult.describe(other));
        }
    }
}
