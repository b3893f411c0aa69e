package dev.overlap.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.overlap.core.MeshTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the typed arrays do beyond the accessors every variant shares ({@link DeviceArraySanityTest}): the IEEE-754
 * rules of {@link DoubleArray}'s atomics, global addresses, one-sided operations between devices.
 */
class DeviceArrayTest {
    private static Mesh mesh;

    @BeforeAll
    static void setUp() {
        mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
    }

    @AfterAll
    static void tearDown() {
        mesh.close();
    }

    @Test
    void doubleAtomicsUseBitsAndIgnoreNaNForMinMax() {
        final DoubleArray a = mesh.device(0).allocateDoubles(2);
        a.set(0, 1.5);
        assertEquals(1.5, a.getAndAdd(0, 2.25));
        assertEquals(3.75, a.get(0));
        assertEquals(3.75, a.getAndMin(0, -1.0));
        assertEquals(-1.0, a.getAndMax(0, Double.NaN));
        assertEquals(-1.0, a.getAndMax(0, 2.0));
        assertEquals(2.0, a.getVolatile(0));
        assertTrue(a.compareAndSet(0, 2.0, 0.0));
        assertFalse(a.compareAndSet(0, -0.0, 1.0), "CAS compares bits: -0.0 is not 0.0");
        a.setRelease(1, 4.0);
        assertEquals(4.0, a.getAcquire(1));
        assertEquals(4.0, a.getAndSet(1, 5.0));
        a.setOpaque(1, 6.0);
        assertEquals(6.0, a.getOpaque(1));
    }

    @Test
    void globalAddressesPackDeviceAndOffset() {
        final long address = GlobalAddress.of(3, 123_456_789L);
        assertEquals(3, GlobalAddress.device(address));
        assertEquals(123_456_789L, GlobalAddress.offset(address));
        assertEquals("dev3+123456789", GlobalAddress.toString(address));
        assertThrows(IllegalArgumentException.class, () -> GlobalAddress.of(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> GlobalAddress.of(0, -1));
        assertThrows(IllegalArgumentException.class, () -> GlobalAddress.of(0x10000, 0));
        final IntArray a = mesh.device(1).allocateInts(4);
        assertEquals(GlobalAddress.of(1, a.offset() + 8), a.address(2));
    }

    @Test
    void oneSidedPutGetAndCopyBetweenDevices() {
        final SymmetricArray<LongArray> s = mesh.allocateLongs(1024);
        for (int i = 0; i < 1024; i++) {
            s.on(0).set(i, i * 7L);
        }
        mesh.copy(s.on(0).address(0), s.on(1).address(0), 1024 * 8);
        for (int i = 0; i < 1024; i++) {
            assertEquals(i * 7L, s.on(1).get(i));
        }
        final byte[] bytes = {1, 2, 3, 4, 5, 6, 7, 8};
        mesh.put(s.on(1).address(10), bytes, 0, 8);
        final byte[] back = new byte[8];
        mesh.get(s.on(1).address(10), back, 0, 8);
        assertArrayEquals(bytes, back);
        final UnsafeBuffer direct = new UnsafeBuffer(new byte[16]);
        mesh.get(s.on(0).address(2), direct, 0, 16);
        assertEquals(14L, direct.getLong(0));
        assertEquals(21L, direct.getLong(8));
        mesh.put(s.on(0).address(0), direct, 8, 8);
        assertEquals(21L, s.on(0).get(0));

        mesh.copy(s.on(0), 0, s.on(1), 1000, 24);
        assertEquals(21L, s.on(1).get(1000));
        assertEquals(7L, s.on(1).get(1001));
        s.close();
    }

    @Test
    void oneSidedOperationsCheckAddressesAndRanges() {
        final SymmetricArray<IntArray> s = mesh.allocateInts(16);
        final int capacity = mesh.memoryPerDevice();
        assertMessage(assertThrows(IndexOutOfBoundsException.class,
            () -> mesh.copy(GlobalAddress.of(0, capacity - 4), s.on(1).address(0), 8)), "outside dev0 memory");
        assertMessage(assertThrows(IndexOutOfBoundsException.class,
            () -> mesh.put(GlobalAddress.of(5, 0), new byte[4], 0, 4)), "outside 0..1");
        assertThrows(IndexOutOfBoundsException.class, () -> mesh.put(s.on(0).address(0), new byte[4], 2, 4));
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> mesh.copy(s.on(0).address(0), s.on(1).address(0), -1)), "length");
        final SymmetricArray<LongArray> longs = mesh.allocateLongs(2);
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> mesh.copy(s.on(0), 0, longs.on(1), 0, 1)), "element types differ");
        assertThrows(IndexOutOfBoundsException.class, () -> mesh.copy(s.on(0), 10, s.on(1), 0, 7));
        assertThrows(IndexOutOfBoundsException.class, () -> mesh.memory(0).slice(capacity - 8, 16));
        s.close();
        longs.close();
    }
}
