package dev.overlap.worklist;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuiescenceDetectorTest {
    @Test
    void quiescentOnlyWhenEveryCreatedTaskCompleted() {
        final QuiescenceDetector d = new QuiescenceDetector(3);
        assertTrue(d.isQuiescent(), "nothing created yet");
        d.created(0, 1);
        assertFalse(d.isQuiescent());
        d.created(1, 5);
        d.completed(2, 1);
        assertFalse(d.isQuiescent());
        d.completed(2, 4);
        assertFalse(d.isQuiescent());
        d.completed(0, 1);
        assertTrue(d.isQuiescent());
        assertEquals(6, d.createdTotal());
        assertEquals(6, d.completedTotal());
    }

    @Test
    void argumentsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new QuiescenceDetector(0));
        final QuiescenceDetector d = new QuiescenceDetector(2);
        assertThrows(IndexOutOfBoundsException.class, () -> d.created(2, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> d.completed(-1, 1));
        assertEquals(2, d.participants());
    }
}
