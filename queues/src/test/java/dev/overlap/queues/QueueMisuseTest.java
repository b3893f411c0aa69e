package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.Mesh;
import dev.overlap.core.OfferResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 15's misuse of queues in device memory: a second free, use after free, use after the mesh closed. */
public class QueueMisuseTest {
    private static Mesh mesh(final String name) {
        return Mesh.builder().name(name).devices(1).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
    }

    private static void assertMessage(final Throwable t, final String part) {
        assertTrue(t.getMessage() != null && t.getMessage().contains(part),
            "message should contain '" + part + "': " + t.getMessage());
    }

    @Test
    void freeingARingTwiceIsAnErrorAndNeverFreesTheNextOwner() {
        try (Mesh mesh = mesh("q1")) {
            final Device device = mesh.device(0);
            final IntCounterRing first = IntCounterRing.allocate(device, 64);
            first.free();
            final IntCounterRing next = IntCounterRing.allocate(device, 64);
            next.offer(5);
            assertMessage(assertThrows(IllegalStateException.class, first::free), "IntCounterRing of capacity 64");
            assertEquals(1, next.size(), "the second free left the next owner's items alone");
            assertEquals(5, next.poll(-1));
            final IntCounterQueue block = IntCounterQueue.allocate(device, 16);
            block.free();
            assertThrows(IllegalStateException.class, block::free);
        }
    }

    @Test
    void everyStructureRefusesUseAfterItsFree() {
        try (Mesh mesh = mesh("q2")) {
            final Device device = mesh.device(0);
            final IntCounterRing ints = IntCounterRing.allocate(device, 64);
            final LongCounterRing longs = LongCounterRing.allocate(device, 64);
            final IntCounterQueue block = IntCounterQueue.allocate(device, 64);
            final IntPriorityWorklist worklist = IntPriorityWorklist.allocate(device, 64, 10, 10);
            ints.free();
            longs.free();
            block.free();
            worklist.free();
            // the non-blocking offers answer CLOSED (see OfferResult); every other call throws, naming the queue
            assertEquals(OfferResult.CLOSED, ints.offer(1));
            assertEquals(OfferResult.CLOSED, ints.offer(new int[2], 0, 2));
            assertEquals(OfferResult.CLOSED, ints.offerAll(new int[2], 0, 2));
            assertEquals(OfferResult.CLOSED, longs.offer(2L));
            assertEquals(OfferResult.CLOSED, longs.offer(new long[2], 0, 2));
            assertEquals(OfferResult.CLOSED, block.offer(3));
            assertEquals(OfferResult.CLOSED, block.offer(new int[2], 0, 2));
            assertEquals(OfferResult.CLOSED, worklist.push(1, 1));
            assertEquals(OfferResult.CLOSED, worklist.pushAll(new long[2], 2));
            assertMessage(assertThrows(IllegalStateException.class, () -> ints.poll(-1)), "was freed");
            assertMessage(assertThrows(IllegalStateException.class, () -> ints.poll(-1)), "IntCounterRing of capacity 64");
            assertThrows(IllegalStateException.class, ints::size);
            assertThrows(IllegalStateException.class, () -> longs.poll(new long[2], 0, 2));
            assertThrows(IllegalStateException.class, () -> block.poll(new int[4], 0, 4));
            assertThrows(IllegalStateException.class, block::reset);
            assertThrows(IllegalStateException.class, () -> worklist.poll(-1L));
            assertThrows(IllegalStateException.class, worklist::size);
            assertTrue(ints.isFreed());
            assertTrue(ints.toString().contains("freed"), ints.toString());
        }
    }

    @Test
    void aQueueLeftOpenIsRefusedAfterItsMeshClosed() {
        final Mesh mesh = mesh("q3");
        final LongCounterRing ring = LongCounterRing.allocate(mesh.device(0), 64);
        ring.offer(1);
        mesh.close();
        assertEquals(OfferResult.CLOSED, ring.offer(2), "a producer racing into the shutdown gets a code");
        assertMessage(assertThrows(IllegalStateException.class, () -> ring.poll(-1)), "mesh 'q3' was closed");
        assertMessage(assertThrows(IllegalStateException.class, ring::free), "mesh 'q3' was closed");
    }

    @Test
    void aQueueOverACallersBufferIsFreedByItsCaller() {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(IntCounterRing.requiredBytes(16)));
        final IntCounterRing ring = new IntCounterRing(buffer, 16);
        assertMessage(assertThrows(IllegalStateException.class, ring::free), "caller's region");
        ring.offer(3);
        assertEquals(3, ring.poll(-1));
    }
}
