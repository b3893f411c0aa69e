package dev.overlap.core;

import dev.overlap.testing.Variant;
import dev.overlap.testing.Variant.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.overlap.core.MeshTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One sanity suite over every typed device array: {@link IntArray}, the {@link LongArray} generated from it, and the
 * hand-written {@link DoubleArray} (its atomics are CAS loops on the bits, its own rules are in
 * {@link DeviceArrayTest}), each allocated on one device and as one device's view of a symmetric allocation. Every
 * accessor pair, every atomic, fill and clear, bounds and lifetime checks on every accessor; values are each
 * variant's widest ones, so a twin that kept an {@code int} where its element belongs loses bits here. Atomicity
 * under races is jcstress's ({@code *ArrayGetAndAddTest} and friends).
 */
class DeviceArraySanityTest {
    private static final int LENGTH = 9;
    private static Mesh mesh;

    @BeforeAll
    static void startMesh() {
        mesh = Mesh.builder().name("array-sanity").devices(2).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
    }

    @AfterAll
    static void closeMesh() {
        mesh.close();
    }

    /** An array class with every accessor the suite calls, looked up by the signatures each variant must have. */
    static final class Type {
        final Variant variant;
        final String allocate;
        /** Ascending values the element type holds exactly; the outer ones need its whole width. */
        final long[] samples;
        final int elementBytes;
        final Map<String, Variant.Op> reads = new LinkedHashMap<>();
        final Map<String, Variant.Op> writes = new LinkedHashMap<>();
        final Variant.Op getAndAdd;
        final Variant.Op getAndSet;
        final Variant.Op compareAndSet;
        final Variant.Op getAndMin;
        final Variant.Op getAndMax;
        final Variant.Op fill;

        Type(final Class<?> type, final Class<?> element, final String allocate, final int elementBytes,
            final long... samples) {
            this.variant = Variant.of(type, element);
            this.allocate = allocate;
            this.samples = samples;
            this.elementBytes = elementBytes;
            for (final String kind : List.of("", "Opaque", "Acquire", "Volatile")) {
                reads.put("get" + kind, variant.method("get" + kind, int.class));
            }
            for (final String kind : List.of("", "Opaque", "Release", "Volatile")) {
                writes.put("set" + kind, variant.method("set" + kind, int.class, Element.class));
            }
            getAndAdd = variant.method("getAndAdd", int.class, Element.class);
            getAndSet = variant.method("getAndSet", int.class, Element.class);
            compareAndSet = variant.method("compareAndSet", int.class, Element.class, Element.class);
            getAndMin = variant.method("getAndMin", int.class, Element.class);
            getAndMax = variant.method("getAndMax", int.class, Element.class);
            fill = variant.method("fill", Element.class);
        }

        @Override
        public String toString() {
            return variant.toString();
        }
    }

    static final Type INT = new Type(IntArray.class, int.class, "allocateInts", 4,
        Integer.MIN_VALUE, -1, 7, 0x5EED_0F0F, Integer.MAX_VALUE);
    static final Type LONG = new Type(LongArray.class, long.class, "allocateLongs", 8,
        Long.MIN_VALUE, -1, 7, 0x5EED_0F0F_1234_5678L, Long.MAX_VALUE);
    static final Type DOUBLE = new Type(DoubleArray.class, double.class, "allocateDoubles", 8,
        -(1L << 52), -1, 7, 1L << 40, 1L << 52);

    enum Allocation { DEVICE, SYMMETRIC }

    /** One combination the suite runs. */
    static final class Case {
        final Type type;
        final Allocation allocation;

        Case(final Type type, final Allocation allocation) {
            this.type = type;
            this.allocation = allocation;
        }

        @Override
        public String toString() {
            return type + ", " + allocation;
        }
    }

    static List<Case> cases() {
        final List<Case> out = new ArrayList<>();
        for (final Type t : List.of(INT, LONG, DOUBLE)) {
            for (final Allocation a : Allocation.values()) {
                out.add(new Case(t, a));
            }
        }
        return out;
    }

    /** @return a fresh array of {@link #LENGTH} elements on device 1, and what frees it */
    private static DeviceArray array(final Case c, final List<AutoCloseable> free) {
        try {
            if (c.allocation == Allocation.DEVICE) {
                final Device device = mesh.device(1);
                final DeviceArray a = (DeviceArray)Device.class.getMethod(c.type.allocate, long.class)
                    .invoke(device, (long)LENGTH);
                free.add(() -> device.free(a));
                return a;
            }
            final SymmetricArray<?> s = (SymmetricArray<?>)Mesh.class.getMethod(c.type.allocate, long.class)
                .invoke(mesh, (long)LENGTH);
            free.add(s);
            return s.on(1);
        } catch (final ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static DeviceArray array(final Case c) {
        return array(c, new ArrayList<>());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyReadSeesWhatEveryWriteWroteWithEveryBit(final Case c) {
        final DeviceArray a = array(c);
        final Type t = c.type;
        int round = 0;
        for (final int index : new int[] {0, LENGTH / 2, LENGTH - 1}) {
            for (final long v : t.samples) {
                for (final Variant.Op write : t.writes.values()) {
                    final long value = v ^ round++ % 2; // consecutive writes differ
                    write.call(a, index, value);
                    for (final Map.Entry<String, Variant.Op> read : t.reads.entrySet()) {
                        assertEquals(value, read.getValue().callLong(a, index), write + " then " + read.getKey());
                    }
                }
            }
        }
        assertEquals(LENGTH, a.length());
        assertEquals(t.elementBytes, a.elementBytes());
        assertEquals((long)LENGTH * t.elementBytes, a.byteLength());
        assertEquals(1, a.device());
        assertEquals(GlobalAddress.of(1, a.offset() + 2L * t.elementBytes), a.address(2));
        assertTrue(a.toString().startsWith(t.variant.type().getSimpleName() + "{dev1+"), a.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void atomicsKeepTheirContract(final Case c) {
        final DeviceArray a = array(c);
        final Type t = c.type;
        final long[] s = t.samples;
        final int i = LENGTH - 1;
        t.writes.get("set").call(a, i, s[2]);
        assertEquals(s[2], t.getAndAdd.callLong(a, i, s[1]), "getAndAdd answers the previous value");
        assertEquals(s[2] + s[1], t.reads.get("get").callLong(a, i));
        assertEquals(s[2] + s[1], t.getAndSet.callLong(a, i, s[4]));
        assertEquals(s[4], t.reads.get("get").callLong(a, i));
        assertFalse(t.compareAndSet.callBoolean(a, i, s[3], s[0]), "CAS from a value the element does not hold");
        assertEquals(s[4], t.reads.get("get").callLong(a, i));
        assertTrue(t.compareAndSet.callBoolean(a, i, s[4], s[0]));
        assertEquals(s[0], t.reads.get("get").callLong(a, i));
        assertEquals(s[0], t.getAndMax.callLong(a, i, s[4]), "max raises from the smallest to the largest");
        assertEquals(s[4], t.getAndMax.callLong(a, i, s[3]), "a smaller value leaves the maximum");
        assertEquals(s[4], t.getAndMin.callLong(a, i, s[0]), "min lowers to the smallest");
        assertEquals(s[0], t.getAndMin.callLong(a, i, s[1]), "a larger value leaves the minimum");
        assertEquals(s[0], t.reads.get("getVolatile").callLong(a, i));
        for (int other = 0; other < LENGTH - 1; other++) {
            assertEquals(0, t.reads.get("get").callLong(a, other), "the atomics touched only their element");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fillAndClearCoverEveryElement(final Case c) {
        final DeviceArray a = array(c);
        final Type t = c.type;
        for (final long v : t.samples) {
            t.fill.call(a, v);
            for (int i = 0; i < LENGTH; i++) {
                assertEquals(v, t.reads.get("get").callLong(a, i));
            }
        }
        a.clear();
        for (int i = 0; i < LENGTH; i++) {
            assertEquals(0, t.reads.get("get").callLong(a, i));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyAccessorChecksItsIndex(final Case c) {
        final DeviceArray a = array(c);
        for (final int bad : new int[] {-1, LENGTH, Integer.MIN_VALUE}) {
            for (final Executable call : accessors(c.type, a, bad)) {
                assertMessage(assertThrows(IndexOutOfBoundsException.class, call), "index " + bad);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aFreedArrayRefusesEveryAccessor(final Case c) throws Exception {
        final List<AutoCloseable> free = new ArrayList<>();
        final DeviceArray a = array(c, free);
        c.type.fill.call(a, c.type.samples[3]);
        free.get(0).close();
        final List<Executable> calls = accessors(c.type, a, 0);
        calls.add(() -> c.type.fill.call(a, 1L));
        calls.add(a::clear);
        calls.add(a::checkLive);
        for (final Executable call : calls) {
            assertMessage(assertThrows(IllegalStateException.class, call), "no longer usable");
        }
        assertEquals(LENGTH, a.length(), "the length stays readable");
        assertTrue(a.toString().contains("freed"), a.toString());
    }

    /** Racing atomic adds from several threads sum exactly (a sanity check; jcstress owns the interleavings). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void racingAddsSumExactly(final Case c) throws Exception {
        final DeviceArray a = array(c);
        final int perThread = 5_000;
        final Thread[] threads = new Thread[3];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int k = 0; k < perThread; k++) {
                    c.type.getAndAdd.call(a, 3, 1L);
                    c.type.getAndMax.call(a, 4, (long)k);
                }
            });
            threads[t].start();
        }
        for (final Thread t : threads) {
            t.join(60_000);
            assertFalse(t.isAlive(), "stuck thread");
        }
        assertEquals((long)threads.length * perThread, c.type.reads.get("getVolatile").callLong(a, 3));
        assertEquals(perThread - 1, c.type.reads.get("getVolatile").callLong(a, 4));
    }

    /** @return a call of every element accessor at {@code index} */
    private static List<Executable> accessors(final Type t, final DeviceArray a, final int index) {
        final List<Executable> calls = new ArrayList<>();
        for (final Variant.Op read : t.reads.values()) {
            calls.add(() -> read.call(a, index));
        }
        for (final Variant.Op write : t.writes.values()) {
            calls.add(() -> write.call(a, index, 1L));
        }
        for (final Variant.Op op : List.of(t.getAndAdd, t.getAndSet, t.getAndMin, t.getAndMax)) {
            calls.add(() -> op.call(a, index, 1L));
        }
        calls.add(() -> t.compareAndSet.call(a, index, 0L, 1L));
        return calls;
    }
}
