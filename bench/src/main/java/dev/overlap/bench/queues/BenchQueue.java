package dev.overlap.bench.queues;

import dev.overlap.queues.CounterRingQueue;
import dev.overlap.queues.IntCounterQueue;
import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.Publication;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.BufferUtil;
import org.jctools.queues.MpmcArrayQueue;

import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One queue under test, seen through int items: single and batch push/pop. Object peers carry one preallocated
 * {@link Integer} (no boxing on the hot path); our primitive queues carry the int itself. Each JMH fork uses one
 * implementation, so calls through this interface stay monomorphic.
 */
abstract class BenchQueue {
    static final Integer ITEM = 1_000_000;

    /** @return true if pushed */
    abstract boolean push(int item);

    /** @return the item or -1 when empty */
    abstract int pop();

    /** Pushes {@code src[0..n)}; @return how many were pushed. Default: a loop of single pushes. */
    int push(final int[] src, final int n) {
        int i = 0;
        while (i < n && push(src[i])) {
            i++;
        }
        return i;
    }

    /** Pops up to {@code n} into {@code dst}; @return how many. Default: a loop of single pops. */
    int pop(final int[] dst, final int n) {
        int i = 0;
        int v;
        while (i < n && (v = pop()) >= 0) {
            dst[i++] = v;
        }
        return i;
    }

    /** Empties the queue for a new single-shot round (between iterations only). */
    void reset() {
        final int[] sink = new int[64];
        while (pop(sink, sink.length) > 0) {
            // drain
        }
    }

    /** Whether the queue allows more than one consumer thread. */
    boolean multiConsumer() {
        return true;
    }

    static BenchQueue create(final String impl, final int capacity) {
        switch (impl) {
            case "counterRing": return new Ring(capacity, Publication.ORDERED);
            case "counterRingWindowed": return new Ring(capacity, Publication.WINDOWED);
            case "counterBlock": return new Block(capacity, Publication.ORDERED);
            case "counterBlockWindowed": return new Block(capacity, Publication.WINDOWED);
            case "counterBlockSingle": return new SingleItemsOnly(new Block(capacity, Publication.ORDERED));
            case "counterRingQueue": return new Facade(capacity);
            case "jctoolsMpmc": return new ObjectPeer(new MpmcArrayQueue<>(capacity));
            case "jctoolsMpmcFillDrain": return new JcToolsFillDrain(capacity);
            case "agronaManyToOne": return new AgronaManyToOne(capacity);
            case "concurrentLinkedQueue": return new ObjectPeer(new ConcurrentLinkedQueue<>());
            case "arrayBlockingQueue": return new ObjectPeer(new ArrayBlockingQueue<>(capacity));
            case "casTailArrayQueue": return new CasTail(capacity);
            default: throw new IllegalArgumentException("unknown queue implementation '" + impl + "'");
        }
    }

    static UnsafeBuffer region(final int bytes) {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(bytes, 128));
    }

    static final class Ring extends BenchQueue {
        final IntCounterRing q;

        Ring(final int capacity, final Publication p) {
            q = new IntCounterRing(region(IntCounterRing.requiredBytes(capacity, 64)), capacity, 64, p);
        }

        @Override boolean push(final int item) {
            return q.offer(item) >= 0; // a position, or a code (OfferResult)
        }

        @Override int pop() {
            return q.poll(-1);
        }

        @Override int push(final int[] src, final int n) {
            return Math.max(0, q.offer(src, 0, n)); // a count, or a code: none pushed
        }

        @Override int pop(final int[] dst, final int n) {
            return q.poll(dst, 0, n);
        }
    }

    static final class Block extends BenchQueue {
        final IntCounterQueue q;

        Block(final int capacity, final Publication p) {
            q = new IntCounterQueue(region(IntCounterQueue.requiredBytes(capacity, 64)), capacity, 64, p);
        }

        @Override boolean push(final int item) {
            return q.offer(item) >= 0; // a position, or a code (OfferResult)
        }

        @Override int pop() {
            return q.poll(-1);
        }

        @Override int push(final int[] src, final int n) {
            return Math.max(0, q.offer(src, 0, n)); // a count, or a code: none pushed
        }

        @Override int pop(final int[] dst, final int n) {
            return q.poll(dst, 0, n);
        }

        @Override void reset() {
            q.reset();
        }
    }

    /** A per-thread drain target (adapters are shared by all benchmark threads). */
    static final class Sink implements java.util.function.Consumer<Integer>, org.jctools.queues.MessagePassingQueue.Consumer<Integer> {
        int[] target;
        int filled;

        Sink into(final int[] dst) {
            target = dst;
            filled = 0;
            return this;
        }

        @Override
        public void accept(final Integer e) {
            target[filled++] = e;
        }
    }

    static final ThreadLocal<Sink> SINK = ThreadLocal.withInitial(Sink::new);

    static final class Facade extends BenchQueue {
        final CounterRingQueue<Integer> q;
        final org.jctools.queues.MessagePassingQueue.Supplier<Integer> supplier = () -> ITEM;

        Facade(final int capacity) {
            q = new CounterRingQueue<>(capacity, 64, Publication.ORDERED);
        }

        @Override boolean push(final int item) {
            return q.offer(ITEM);
        }

        @Override int pop() {
            final Integer e = q.poll();
            return e == null ? -1 : e;
        }

        @Override int push(final int[] src, final int n) {
            return q.fill(supplier, n);
        }

        @Override int pop(final int[] dst, final int n) {
            return q.drain(SINK.get().into(dst), n);
        }
    }

    static class ObjectPeer extends BenchQueue {
        final Queue<Integer> q;

        ObjectPeer(final Queue<Integer> q) {
            this.q = q;
        }

        @Override boolean push(final int item) {
            return q.offer(ITEM);
        }

        @Override int pop() {
            final Integer e = q.poll();
            return e == null ? -1 : e;
        }
    }

    static final class JcToolsFillDrain extends BenchQueue {
        final MpmcArrayQueue<Integer> q;
        final org.jctools.queues.MessagePassingQueue.Supplier<Integer> supplier = () -> ITEM;

        JcToolsFillDrain(final int capacity) {
            q = new MpmcArrayQueue<>(capacity);
        }

        @Override boolean push(final int item) {
            return q.offer(ITEM);
        }

        @Override int pop() {
            final Integer e = q.poll();
            return e == null ? -1 : e;
        }

        @Override int push(final int[] src, final int n) {
            return q.fill(supplier, n);
        }

        @Override int pop(final int[] dst, final int n) {
            return q.drain(SINK.get().into(dst), n);
        }
    }

    static final class AgronaManyToOne extends ObjectPeer {
        final ManyToOneConcurrentArrayQueue<Integer> m2o;

        AgronaManyToOne(final int capacity) {
            this(new ManyToOneConcurrentArrayQueue<>(capacity));
        }

        private AgronaManyToOne(final ManyToOneConcurrentArrayQueue<Integer> q) {
            super(q);
            this.m2o = q;
        }

        @Override int pop(final int[] dst, final int n) {
            return m2o.drain(SINK.get().into(dst), n);
        }

        @Override boolean multiConsumer() {
            return false;
        }
    }

    /** Our queue driven one item at a time (Atos' thread-sized workers), to separate batching from the rest. */
    static final class SingleItemsOnly extends BenchQueue {
        final BenchQueue q;

        SingleItemsOnly(final BenchQueue q) {
            this.q = q;
        }

        @Override boolean push(final int item) {
            return q.push(item);
        }

        @Override int pop() {
            return q.pop();
        }

        @Override void reset() {
            q.reset();
        }
    }

    static final class CasTail extends BenchQueue {
        final CasTailArrayQueue<Integer> q;

        CasTail(final int capacity) {
            q = new CasTailArrayQueue<>(capacity);
        }

        @Override boolean push(final int item) {
            return q.offer(ITEM);
        }

        @Override int pop() {
            final Integer e = q.poll();
            return e == null ? -1 : e;
        }
    }
}
