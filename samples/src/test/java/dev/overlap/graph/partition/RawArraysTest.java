package dev.overlap.graph.partition;

import dev.overlap.core.IntArray;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RawArraysTest {
    /** Owner lookup: the instance form, the static form kernels use, and a linear scan agree for 1..12 devices. */
    @Test
    void staticOwnerLookupMatchesTheBounds() {
        for (int devices = 1; devices <= 12; devices++) {
            final int[] bounds = new int[devices + 1];
            for (int d = 1; d <= devices; d++) {
                bounds[d] = bounds[d - 1] + 3 + (d * 7) % 5; // uneven ranges
            }
            final Owners owners = new Owners(bounds);
            for (int v = 0; v < bounds[devices]; v++) {
                int expected = 0;
                while (bounds[expected + 1] <= v) {
                    expected++;
                }
                assertEquals(expected, Owners.of(bounds, v), devices + " devices, vertex " + v);
                assertEquals(expected, owners.of(v));
            }
            assertEquals(bounds.length, owners.bounds().length);
        }
    }

    /** Element w of a vertex array sits at global[owner(w)] + (w << shift), on its owner's memory. */
    @Test
    void globalAddressesReachEveryElementOnItsOwner() {
        try (Mesh mesh = Mesh.builder().name("raw").devices(3).threadsPerDevice(1).memoryPerDevice(1 << 20).build()) {
            final int[] bounds = {0, 5, 5, 12}; // device 1 owns nothing
            final IntArray[] ints = new IntArray[3];
            final LongArray[] longs = new LongArray[3];
            for (int d = 0; d < 3; d++) {
                mesh.device(d).allocateInts(3); // a non-zero offset in each device's memory
                ints[d] = mesh.device(d).allocateInts(Math.max(1, bounds[d + 1] - bounds[d]));
                longs[d] = mesh.device(d).allocateLongs(Math.max(1, bounds[d + 1] - bounds[d]));
                for (int i = 0; i < bounds[d + 1] - bounds[d]; i++) {
                    ints[d].set(i, 1000 * d + i);
                    longs[d].set(i, -(1000L * d + i));
                }
            }
            final long[] intAt = RawArrays.of(ints).globalAddresses(bounds, 2);
            final long[] longAt = RawArrays.of(longs).globalAddresses(bounds, 3);
            final long[] local = RawArrays.of(ints).addresses();
            for (int w = 0; w < bounds[3]; w++) {
                final int o = Owners.of(bounds, w);
                final int lw = w - bounds[o];
                assertEquals(1000 * o + lw, UnsafeApi.getInt(null, intAt[o] + ((long)w << 2)), "int element " + w);
                assertEquals(-(1000L * o + lw), UnsafeApi.getLong(null, longAt[o] + ((long)w << 3)), "long element " + w);
                assertEquals(1000 * o + lw, UnsafeApi.getInt(null, local[o] + ((long)lw << 2)));
            }
            UnsafeApi.putInt(null, intAt[2] + (11L << 2), 42);
            assertEquals(42, ints[2].get(6));
            assertThrows(IllegalArgumentException.class, () -> RawArrays.of(ints).globalAddresses(new int[] {0, 5}, 2));
        }
    }

    @Test
    void theRawAddressIsTheBuffersAddressPlusTheArraysOffset() {
        try (Mesh mesh = Mesh.builder().name("raw2").devices(1).threadsPerDevice(1).memoryPerDevice(1 << 16).build()) {
            mesh.device(0).allocateLongs(5);
            final IntArray a = mesh.device(0).allocateInts(4);
            final RawArrays raw = RawArrays.of(a);
            assertEquals(raw.buffer(0).addressOffset() + raw.base(0), raw.address(0));
            assertTrue(raw.base(0) > 0);
            a.set(3, 7);
            assertEquals(7, UnsafeApi.getInt(null, raw.address(0) + 12));
        }
    }
}
