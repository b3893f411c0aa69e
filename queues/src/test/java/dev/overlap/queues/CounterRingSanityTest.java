package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import dev.overlap.core.Device;
import dev.overlap.core.Mesh;
import dev.overlap.core.OfferResult;
import dev.overlap.testing.Variant.Element;
import dev.overlap.testing.Variant.Elements;
import dev.overlap.testing.Variant;
import org.agrona.concurrent.AtomicBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One sanity suite over every ring: {@link IntCounterRing} and the {@link LongCounterRing} generated from it, each
 * with both {@link Publication} rules, over a caller's heap buffer and in device memory (as JCTools'
 * {@code QueueSanityTest} runs one suite over every queue). Sequential behaviour, argument checks, lifetimes and a
 * multi-threaded conservation check; items carry each variant's widest values, so a twin that kept an {@code int}
 * where its element belongs loses bits here. Linearizability is Lincheck's ({@code *CounterRingLincheckTest}) and
 * the races jcstress's.
 */
class CounterRingSanityTest {
    /** Returned by {@code poll} when empty: no sample equals it. */
    private static final long EMPTY = -7;
    private static Mesh mesh;
    private final List<Ring> allocated = new ArrayList<>();

    @BeforeAll
    static void startMesh() {
        mesh = Mesh.builder().name("ring-sanity").devices(1).threadsPerDevice(1).memoryPerDevice(8 << 20).build();
    }

    @AfterAll
    static void closeMesh() {
        mesh.close();
    }

    @AfterEach
    void freeDeviceRings() {
        for (final Ring r : allocated) {
            if (!r.isFreed()) {
                r.free();
            }
        }
    }

    enum Memory { HEAP, DEVICE }

    /** A ring class with the calls the suite makes, looked up by the signatures every variant must have. */
    static final class Type {
        final Variant variant;
        /** Values whose every bit the element type holds; the last ones need the whole width. */
        final long[] samples;
        final Variant.Op construct;
        final Variant.Op constructDefault;
        final Variant.Op allocate;
        final Variant.Op allocateDefault;
        final Variant.Op allocatePublication;
        final Variant.Op requiredBytes;
        final Variant.Op requiredBytesDefault;
        final Variant.Op offer;
        final Variant.Op offerAll;
        final Variant.Op offerBatch;
        final Variant.Op poll;
        final Variant.Op pollBatch;

        Type(final Class<?> type, final Class<?> element, final long... samples) {
            this.variant = Variant.of(type, element);
            this.samples = samples;
            construct = variant.constructor(AtomicBuffer.class, int.class, int.class, Publication.class);
            constructDefault = variant.constructor(AtomicBuffer.class, int.class);
            allocate = variant.staticMethod("allocate", Device.class, int.class, int.class, Publication.class);
            allocateDefault = variant.staticMethod("allocate", Device.class, int.class);
            allocatePublication = variant.staticMethod("allocate", Device.class, int.class, Publication.class);
            requiredBytes = variant.staticMethod("requiredBytes", int.class, int.class);
            requiredBytesDefault = variant.staticMethod("requiredBytes", int.class);
            offer = variant.method("offer", Element.class);
            offerAll = variant.method("offerAll", Elements.class, int.class, int.class);
            offerBatch = variant.method("offer", Elements.class, int.class, int.class);
            poll = variant.method("poll", Element.class);
            pollBatch = variant.method("poll", Elements.class, int.class, int.class);
        }

        @Override
        public String toString() {
            return variant.toString();
        }
    }

    static final Type INT = new Type(IntCounterRing.class, int.class,
        1, -1, 0x5EED_0F0F, Integer.MAX_VALUE, Integer.MIN_VALUE);
    static final Type LONG = new Type(LongCounterRing.class, long.class,
        1, -1, 0x5EED_0F0F_1234_5678L, Long.MAX_VALUE, Long.MIN_VALUE);

    /** One combination the suite runs. */
    static final class Case {
        final Type type;
        final Publication publication;
        final Memory memory;

        Case(final Type type, final Publication publication, final Memory memory) {
            this.type = type;
            this.publication = publication;
            this.memory = memory;
        }

        @Override
        public String toString() {
            return type + ", " + publication + ", " + memory;
        }
    }

    static List<Case> cases() {
        final List<Case> out = new ArrayList<>();
        for (final Type t : List.of(INT, LONG)) {
            for (final Publication p : Publication.values()) {
                for (final Memory m : Memory.values()) {
                    out.add(new Case(t, p, m));
                }
            }
        }
        return out;
    }

    /** A ring under test: the calls of its variant, bound to it. */
    static final class Ring {
        final Case c;
        final Object target;

        Ring(final Case c, final Object target) {
            this.c = c;
            this.target = target;
        }

        /** @return the new position, or a code ({@link OfferResult}) */
        long offer(final long item) {
            return c.type.offer.callLong(target, item);
        }

        /** @return the items taken (all), or a code */
        int offerAll(final long... items) {
            return c.type.offerAll.callInt(target, items, 0, items.length);
        }

        int offer(final long[] items, final int off, final int len) {
            return c.type.offerBatch.callInt(target, items, off, len);
        }

        long poll() {
            return c.type.poll.callLong(target, EMPTY);
        }

        int poll(final long[] dst, final int off, final int max) {
            return c.type.pollBatch.callInt(target, dst, off, max);
        }

        Object call(final String method) {
            return c.type.variant.method(method).call(target);
        }

        int size() {
            return ((Number)call("size")).intValue();
        }

        boolean isFreed() {
            return (Boolean)call("isFreed");
        }

        void free() {
            call("free");
        }

        @Override
        public String toString() {
            return target.toString();
        }

        /** @return the {@code i}-th sample, cycling, with the lap number in bits 8 and up (never {@link #EMPTY}) */
        long sample(final int i) {
            final long[] s = c.type.samples;
            return s[i % s.length] ^ (long)(i / s.length) << 8;
        }
    }

    private Ring ring(final Case c, final int capacity, final int window) {
        final Object target;
        if (c.memory == Memory.HEAP) {
            final int bytes = c.type.requiredBytes.callInt(capacity, window);
            target = c.type.construct.call(AlignedHeapBuffer.allocate(bytes), capacity, window, c.publication);
        } else {
            target = c.type.allocate.call(mesh.device(0), capacity, window, c.publication);
        }
        final Ring r = new Ring(c, target);
        if (c.memory == Memory.DEVICE) {
            allocated.add(r);
        }
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void anEmptyRingAnswersEmpty(final Case c) {
        final Ring r = ring(c, 8, 2);
        assertEquals(0, r.size());
        assertTrue((Boolean)r.call("isEmpty"));
        assertEquals(EMPTY, r.poll());
        assertEquals(0, r.poll(new long[4], 0, 4));
        assertEquals(8, ((Number)r.call("capacity")).intValue());
        assertEquals(c.publication, r.call("publication"));
        assertEquals(0L, r.call("publishedIndex"));
        assertEquals(0L, r.call("reservedIndex"));
        assertTrue(r.toString().startsWith(c.type.variant.type().getSimpleName() + "{capacity=8"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyBitOfEveryItemComesOutInOrder(final Case c) {
        final Ring r = ring(c, 16, 4);
        final long[] samples = c.type.samples;
        for (final long v : samples) {
            final long position = r.offer(v);
            assertEquals(r.call("reservedIndex"), position, "the new position");
            assertEquals(v, r.poll(), "single item");
        }
        assertEquals(samples.length, r.offerAll(samples));
        assertEquals(samples.length, r.size());
        final long[] out = new long[samples.length];
        assertEquals(samples.length, r.poll(out, 0, out.length));
        assertArrayEquals(samples, out, "batch");
        assertEquals(samples.length, r.offer(samples, 0, samples.length));
        for (final long v : samples) {
            assertEquals(v, r.poll());
        }
        assertEquals(3L * samples.length, r.call("publishedIndex"));
        assertEquals(3L * samples.length, r.call("reservedIndex"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fullIsBackPressureLapAfterLap(final Case c) {
        final Ring r = ring(c, 3, 2);
        for (int lap = 0; lap < 50; lap++) {
            final long a = r.sample(lap);
            final long b = r.sample(lap + 1);
            final long d = r.sample(lap + 2);
            assertEquals(4L * lap + 1, r.offer(a), "the new position: positions reserved so far (4 a lap)");
            assertEquals(2, r.offerAll(b, d));
            assertEquals(OfferResult.BACK_PRESSURED, r.offer(a), "full is back-pressure");
            assertEquals(OfferResult.BACK_PRESSURED, r.offerAll(a, b), "all or nothing");
            assertEquals(OfferResult.BACK_PRESSURED, r.offer(new long[] {a}, 0, 1), "not one fits");
            assertEquals(0, r.offer(new long[] {a}, 0, 0), "an empty batch takes nothing and is no error");
            assertEquals(0, r.offerAll(), "an empty batch takes nothing and is no error");
            assertEquals(3, r.size());
            assertEquals(a, r.poll());
            assertEquals(1, r.offer(new long[] {a, b}, 0, 2), "a greedy batch pushes what fits");
            final long[] out = new long[4];
            assertEquals(3, r.poll(out, 0, 4));
            assertArrayEquals(new long[] {b, d, a, 0}, out);
            assertEquals(EMPTY, r.poll());
        }
    }

    /** Random batch sizes against a FIFO model: batches cross the end of the slot array in every lap. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void mixedBatchesAcrossTheWrapKeepFifo(final Case c) {
        final Ring r = ring(c, 8, 2);
        final ArrayDeque<Long> model = new ArrayDeque<>();
        final SplittableRandom random = new SplittableRandom(16);
        int next = 0;
        for (int step = 0; step < 2_000; step++) {
            final long[] items = new long[1 + random.nextInt(5)];
            for (int i = 0; i < items.length; i++) {
                items[i] = r.sample(next + i);
            }
            final int pushed;
            switch (random.nextInt(3)) {
                case 0: {
                    final long result = r.offer(items[0]);
                    pushed = result >= 0 ? 1 : 0;
                    assertEquals(model.size() < 8 ? next + 1 : OfferResult.BACK_PRESSURED, result, "offer");
                    break;
                }
                case 1: {
                    final int result = r.offerAll(items);
                    pushed = Math.max(0, result);
                    assertEquals(model.size() + items.length <= 8 ? items.length : OfferResult.BACK_PRESSURED, result,
                        "offerAll");
                    break;
                }
                default: {
                    final int result = r.offer(items, 0, items.length);
                    pushed = Math.max(0, result);
                    assertEquals(model.size() < 8 ? Math.min(items.length, 8 - model.size())
                        : OfferResult.BACK_PRESSURED, result, "greedy offer");
                }
            }
            for (int i = 0; i < pushed; i++) {
                model.addLast(items[i]);
            }
            next += pushed;
            final long[] out = new long[1 + random.nextInt(6)];
            final int popped = r.poll(out, 0, out.length);
            assertEquals(Math.min(out.length, model.size()), popped, "batch pop");
            for (int i = 0; i < popped; i++) {
                assertEquals(model.pollFirst(), out[i]);
            }
            assertEquals(model.size(), r.size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void badArgumentsFailAtTheEdge(final Case c) {
        final Type t = c.type;
        assertThrows(IllegalArgumentException.class, () -> t.requiredBytesDefault.call(0));
        assertThrows(IllegalArgumentException.class, () -> t.requiredBytes.call(8, 3), "window not a power of two");
        assertThrows(IllegalArgumentException.class, () -> t.constructDefault.call(AlignedHeapBuffer.allocate(64), 8),
            "region too small");
        assertThrows(IllegalArgumentException.class, () -> t.allocateDefault.call(mesh.device(0), 0));
        final Ring r = ring(c, 8, 2);
        assertThrows(IndexOutOfBoundsException.class, () -> r.poll(new long[2], 1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> r.offer(new long[2], -1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> t.offerAll.call(r.target, new long[2], 1, 2));
        assertThrows(IllegalArgumentException.class, () -> r.offerAll(new long[9]), "batch above the capacity");
        assertThrows(NullPointerException.class, () -> t.offerBatch.call(r.target, null, 0, 1));
        assertEquals(0, r.size(), "nothing was pushed by a refused call");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void freeingIsTheOwnersAndUseAfterFreeIsRefused(final Case c) {
        final Ring r = ring(c, 8, 2);
        if (c.memory == Memory.HEAP) {
            assertTrue(assertThrows(IllegalStateException.class, r::free).getMessage().contains("caller's region"));
            return;
        }
        assertEquals(1, r.offer(r.sample(0)));
        r.free();
        assertTrue(r.isFreed());
        final String name = c.type.variant.type().getSimpleName() + " of capacity 8";
        assertEquals(OfferResult.CLOSED, r.offer(1), "a non-blocking offer answers with a code, see OfferResult");
        assertEquals(OfferResult.CLOSED, r.offerAll(1, 2));
        assertEquals(OfferResult.CLOSED, r.offer(new long[2], 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> r.offer(new long[2], 1, 2), "bad arguments still throw");
        assertTrue(assertThrows(IllegalStateException.class, r::poll).getMessage().contains(name));
        assertThrows(IllegalStateException.class, () -> r.poll(new long[2], 0, 2));
        assertThrows(IllegalStateException.class, r::size);
        assertThrows(IllegalStateException.class, r::free, "a second free is reported");
        assertTrue(r.toString().contains("freed"), r.toString());
        final Ring other = new Ring(c, c.type.allocatePublication.call(mesh.device(0), 8, c.publication));
        allocated.add(other);
        assertEquals(c.publication, other.call("publication"));
    }

    /** Producers and consumers race on a small ring: every item comes out once, whole, in order per producer. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void concurrentProducersAndConsumersConserveItems(final Case c) throws Exception {
        final int producers = 2;
        final int consumers = 2;
        final int perProducer = 10_000;
        final Ring r = ring(c, 64, 8);
        // the top bits of a sample that needs the whole width mark every item, so a truncated or torn item shows
        final long mark = c.type.samples[2] & ~0xFF_FFFFL;
        final AtomicLong sum = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        final long[][] lastSeen = new long[consumers][producers];
        final String[] broken = new String[1];
        for (int t = 0; t < producers; t++) {
            final int id = t;
            threads.add(new Thread(() -> {
                final long[] batch = new long[5];
                int i = 0;
                while (i < perProducer) {
                    final int n = Math.min(batch.length, perProducer - i);
                    for (int j = 0; j < n; j++) {
                        batch[j] = mark | (long)id << 20 | (i + j + 1);
                    }
                    final int pushed = (i & 1) == 0 ? Math.max(0, r.offer(batch, 0, n)) : (r.offer(batch[0]) >= 0 ? 1 : 0);
                    i += pushed;
                    if (pushed == 0) {
                        Thread.yield(); // 4 threads on few cores: let a consumer run
                    }
                }
            }));
        }
        for (int t = 0; t < consumers; t++) {
            final int id = t;
            threads.add(new Thread(() -> {
                final long[] out = new long[7];
                while (count.get() < (long)producers * perProducer) {
                    final int n = r.poll(out, 0, 1 + (int)(count.get() % 7));
                    for (int j = 0; j < n; j++) {
                        final int producer = (int)(out[j] >>> 20 & 0xF);
                        final long seq = out[j] & 0xF_FFFF;
                        if ((out[j] & ~0xFF_FFFFL) != mark || producer >= producers) {
                            broken[0] = "corrupted item " + Long.toHexString(out[j]);
                        } else if (seq <= lastSeen[id][producer]) {
                            broken[0] = "per-producer FIFO broken at " + Long.toHexString(out[j]);
                        } else {
                            lastSeen[id][producer] = seq;
                        }
                        sum.addAndGet(seq);
                    }
                    count.addAndGet(n);
                    if (n == 0) {
                        Thread.yield();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread t : threads) {
            t.join(60_000);
            assertFalse(t.isAlive(), "stuck thread");
        }
        assertEquals(null, broken[0]);
        assertEquals((long)producers * perProducer, count.get());
        assertEquals((long)producers * perProducer * (perProducer + 1L) / 2, sum.get());
        assertEquals(EMPTY, r.poll());
    }
}
