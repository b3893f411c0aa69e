package dev.overlap.stress.queues;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Zeroed off-heap regions for jcstress states that work on device-like memory (the device-memory queues, the BSP
 * kernels' raw words), pooled across states: a state takes one in its constructor and gives it back at the end of
 * its arbiter.
 *
 * <p>Why not {@code new UnsafeBuffer(new byte[n])}: a queue checks its region's alignment, and Agrona answers that
 * check for a {@code byte[]}-backed buffer by printing "AtomicBuffer was created from a byte[] and is not correctly
 * aligned by 8" to stderr, once per queue. jcstress makes millions of states: one CI pass wrote more than a gigabyte
 * of that line (half of it to the console). A direct buffer per state would instead throttle the run on the
 * garbage collector (see {@code TrackerPool}). So regions are 128-byte aligned slices of 1 MiB direct chunks, in
 * power-of-two size classes, reused; there are never more than the states alive at once (about 10 000).
 *
 * <p>A region is zeroed when taken, so a slot read before it was written reads 0, as with a fresh array.
 * Thread-safety: {@link #take} and {@link #give} may be called from any threads (jcstress builds a state on one
 * thread and runs its arbiter on another); the pool's queue orders a give before the take that reuses the region.
 */
public final class Regions {
    private static final int CHUNK = 1 << 20;
    private static final int MIN_SHIFT = 7;
    private static final int MAX_SHIFT = 20;
    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array: Java has no other way to make one
    private static final ConcurrentLinkedQueue<UnsafeBuffer>[] FREE = new ConcurrentLinkedQueue[MAX_SHIFT + 1];
    private static UnsafeBuffer chunk;
    private static int used = CHUNK;

    static {
        for (int s = MIN_SHIFT; s <= MAX_SHIFT; s++) {
            FREE[s] = new ConcurrentLinkedQueue<>();
        }
    }

    private Regions() {
    }

    /** @return a zeroed region of at least {@code bytes} (a power of two, 128 to 1 MiB), aligned to 128 bytes */
    public static UnsafeBuffer take(final int bytes) {
        final int shift = Math.max(MIN_SHIFT, 32 - Integer.numberOfLeadingZeros(bytes - 1));
        if (shift > MAX_SHIFT) {
            throw new IllegalArgumentException("regions hold at most " + CHUNK + " bytes, asked for " + bytes);
        }
        UnsafeBuffer region = FREE[shift].poll();
        if (region == null) {
            region = carve(1 << shift);
        }
        region.setMemory(0, region.capacity(), (byte)0);
        return region;
    }

    /** Returns a region taken with {@link #take}; its state must not use it afterwards. */
    public static void give(final UnsafeBuffer region) {
        FREE[Integer.numberOfTrailingZeros(region.capacity())].offer(region);
    }

    private static synchronized UnsafeBuffer carve(final int size) {
        if (used + size > CHUNK) {
            final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(CHUNK + 128));
            final int skip = (int)(-direct.addressOffset() & 127);
            chunk = new UnsafeBuffer(direct, skip, CHUNK);
            used = 0;
        }
        final UnsafeBuffer region = new UnsafeBuffer(chunk, used, size);
        used += size;
        return region;
    }
}
