package dev.overlap.stress.core;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Device memory allocation from two threads at once, through the public API: {@link Device#allocateInts} and
 * {@link Device#free} (the device's first-fit {@code SymmetricHeap}, whose methods hold its monitor) and
 * {@link SymmetricArray#close()} (idempotent: its region checks and frees under the allocator's lock). Each actor allocates an array of
 * {@value #LENGTH} ints on the same device and fills it with its own tag with plain stores; first, both actors close
 * the same symmetric array, allocated when the state was made (a second free would throw, or free what a later
 * allocation got). The arbiter checks that each array still holds only
 * its owner's tag and that the two ranges are disjoint (two allocations handed the same or overlapping memory show
 * up as the other thread's tag), then frees both arrays.
 *
 * <p>Unlike the other tests here, these states do allocate device memory: allocation is what is under test. They
 * use a mesh of their own per fork, so the other tests' shared mesh keeps its memory.
 *
 * <p>Results: cells of the first array holding its owner's tag, cells of the second array holding its owner's tag,
 * failures (overlapping ranges, an exception from an allocation or a free, a close that freed twice).
 */
@JCStressTest
@Description("Device memory: concurrent allocations never overlap; an array closed twice at once is freed once")
@Outcome(id = "8, 8, 0", expect = ACCEPTABLE, desc = "disjoint arrays, each holding only its owner's tag; one free")
@Outcome(expect = FORBIDDEN, desc = "two allocations overlapped, an allocation or free failed, or a double close "
    + "freed twice")
@State
public class DeviceAllocationRaceTest {
    static final int LENGTH = 8;

    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-alloc").devices(1).threadsPerDevice(1)
            .memoryPerDevice(16 << 20).build();
        static final Device DEVICE = MESH.device(0);
        static final SlotRing RING = new SlotRing();
    }

    private final long ticket = Shared.RING.claim();
    private final int tag1 = SlotRing.tag(ticket);
    private final int tag2 = tag1 ^ 0x4000_0000;
    private final SymmetricArray<IntArray> shared = Shared.MESH.allocateInts(2);
    private IntArray array1;
    private IntArray array2;
    private int failures1;
    private int failures2;

    private IntArray allocateAndFill(final int tag) {
        final IntArray a = Shared.DEVICE.allocateInts(LENGTH);
        for (int i = 0; i < LENGTH; i++) {
            a.set(i, tag);
        }
        return a;
    }

    @Actor
    public void actor1() {
        try {
            shared.close();
            array1 = allocateAndFill(tag1);
        } catch (final RuntimeException e) {
            failures1++;
        }
    }

    @Actor
    public void actor2() {
        try {
            shared.close();
            array2 = allocateAndFill(tag2);
        } catch (final RuntimeException e) {
            failures2++;
        }
    }

    private static int count(final IntArray a, final int tag) {
        int n = 0;
        for (int i = 0; a != null && i < LENGTH; i++) {
            n += a.get(i) == tag ? 1 : 0;
        }
        return n;
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        int failures = failures1 + failures2;
        final IntArray a = array1;
        final IntArray b = array2;
        if (a != null && b != null && a.offset() < b.offset() + b.byteLength()
            && b.offset() < a.offset() + a.byteLength()) {
            failures++;
        }
        r.r1 = count(a, tag1);
        r.r2 = count(b, tag2);
        try {
            if (a != null) {
                Shared.DEVICE.free(a);
            }
            if (b != null && (a == null || b.offset() != a.offset())) {
                Shared.DEVICE.free(b);
            }
        } catch (final RuntimeException e) {
            failures++;
        }
        r.r3 = failures;
    }
}
