package dev.overlap.core;

import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlignedHeapBufferTest {
    @Test
    void agronaStructuresBuiltOverItPrintNothing() {
        final PrintStream err = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            final CountersManager counters = new CountersManager(
                AlignedHeapBuffer.allocate(4 * CountersReader.METADATA_LENGTH),
                AlignedHeapBuffer.allocate(4 * CountersReader.COUNTER_LENGTH));
            counters.newCounter("c").increment();
            new ManyToOneRingBuffer(AlignedHeapBuffer.allocate(1024 + RingBufferDescriptor.TRAILER_LENGTH));
        } finally {
            System.setErr(err);
        }
        assertEquals("", captured.toString(StandardCharsets.UTF_8), "Agrona warned about alignment");
    }

    @Test
    void startsAlignedAndHoldsLongAtomics() {
        final AlignedHeapBuffer b = AlignedHeapBuffer.allocate(24);
        assertEquals(0, b.addressOffset() & 7);
        assertEquals(24, b.capacity());
        assertEquals(0, b.getAndAddLong(16, 5));
        assertTrue(b.compareAndSetLong(16, 5, 9));
        assertEquals(9, b.getLongVolatile(16));
    }

    @Test
    void aMisalignedWrapIsRefusedAndABadLengthNamed() {
        final AlignedHeapBuffer b = AlignedHeapBuffer.allocate(32);
        b.wrap(b.byteArray(), (int)(b.addressOffset() - org.agrona.BufferUtil.ARRAY_BASE_OFFSET) + 1, 16);
        assertThrows(IllegalStateException.class, b::verifyAlignment);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> AlignedHeapBuffer.allocate(-1));
        assertTrue(e.getMessage().contains("was -1"), e.getMessage());
    }
}
