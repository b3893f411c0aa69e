package dev.overlap.graph.bsp;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A cache line of off-heap memory for a jcstress state that works at raw addresses, as the BSP kernels do, taken
 * from a pool and given back by the state's arbiter: jcstress makes thousands of states, and a direct allocation per
 * state would leave their freeing to the garbage collector.
 */
final class OffHeapWords {
    private static final ConcurrentLinkedQueue<OffHeapWords> POOL = new ConcurrentLinkedQueue<>();

    private final UnsafeBuffer words = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));

    private OffHeapWords() {
    }

    /** @return a pooled line, or a new one (its contents are whatever the last state left: set them) */
    static OffHeapWords take() {
        final OffHeapWords pooled = POOL.poll();
        return pooled != null ? pooled : new OffHeapWords();
    }

    /** @return the raw address of the line's first byte (64-byte aligned) */
    long address() {
        return words.addressOffset();
    }

    /** Gives the line back for the next state (from the arbiter, once no actor uses it). */
    void giveBack() {
        POOL.offer(this);
    }
}
