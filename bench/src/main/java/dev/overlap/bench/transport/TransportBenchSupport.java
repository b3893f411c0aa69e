package dev.overlap.bench.transport;

import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.BatchHandler;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/** Shared pieces of the transport benchmarks. */
final class TransportBenchSupport {
    /** Items moved per throughput invocation: 1 MiB of 4-byte items (ops/s is then items/s). */
    static final int ITEMS = 1 << 18;

    private TransportBenchSupport() {
    }

    /**
     * The wait of every benchmark thread, ours and the peers' alike: Agrona's backoff strategy that spins 256 times,
     * then yields, and never parks. On an idle machine a reply arrives within the spins; on a busy 2-core machine
     * the yield keeps a waiter from holding the core its peer needs (pure spinning then measures the scheduler's
     * time slice, milliseconds).
     *
     * @return a new strategy (one per thread)
     */
    static IdleStrategy spinThenYield() {
        return new BackoffIdleStrategy(256, Long.MAX_VALUE, 1, 1);
    }

    /**
     * Produces new items the cheap way: one {@code int} store per 64-byte line of {@code source} (the first item of
     * each line becomes a fresh sequence number). Every line is then modified in the producing core's cache, as a
     * producer leaves its output, so whoever reads the items next (the sender's copy into a ring, or a receiver
     * reading them by reference on another core) really fetches them from this core, not from a copy it kept since
     * the previous invocation.
     *
     * @param source the items
     * @param next   the first sequence number
     * @return the next sequence number
     */
    static int produce(final UnsafeBuffer source, final int next) {
        int v = next;
        for (int i = 0, n = source.capacity(); i < n; i += 64) {
            source.putInt(i, v++);
        }
        return v;
    }

    /** @return the ring capacity used for a batch size: 256 KiB, or the smallest ring that takes the batch if larger */
    static int ringFor(final int batchBytes) {
        return Math.max(1 << 18, AggregatorConfig.smallestRing(batchBytes));
    }

    /** @return (batchBytes - 8) / 4: the int items one batch message carries */
    static int itemsPerBatch(final int batchBytes) {
        return (batchBytes - 8) / 4;
    }

    /**
     * A spinning ({@link #spinThenYield()}) background thread that plays a device's owner (or a consumer) for the whole trial, so the JMH
     * thread's blocking calls always make progress, including at iteration boundaries.
     */
    static final class Service implements AutoCloseable {
        private final Thread thread;
        private volatile boolean running = true;
        private volatile Throwable failure;

        Service(final String name, final IntSupplier work) {
            thread = new Thread(() -> {
                final IdleStrategy idle = spinThenYield();
                try {
                    while (running) {
                        idle.idle(work.getAsInt());
                    }
                } catch (final Throwable t) {
                    failure = t;
                }
            }, name);
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() {
            running = false;
            try {
                thread.join(TimeUnit.SECONDS.toMillis(60));
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop within 60 s");
            }
            if (failure != null) {
                throw new IllegalStateException(thread.getName() + " failed", failure);
            }
        }
    }

    /**
     * Receives int batches and only counts them: the items are in place in the inbox ring when it is called, so this
     * measures the transport's own delivery cost. One thread at a time.
     */
    static final class CountHandler implements BatchHandler {
        long items;

        @Override
        public void onBatch(final int queueId, final int sender, final DirectBuffer buffer, final int offset,
            final int count) {
            items += count;
        }
    }

    /**
     * Receives int batches the way a worklist does: copies each batch into a local 1 MiB queue area (one
     * {@code putBytes}), wrapping around. One thread at a time.
     */
    static final class QueueHandler implements BatchHandler {
        static final int QUEUE_BYTES = 1 << 20;
        final UnsafeBuffer queue = new UnsafeBuffer(BufferUtil.allocateDirectAligned(QUEUE_BYTES, 64));
        long items;
        int position;

        @Override
        public void onBatch(final int queueId, final int sender, final DirectBuffer buffer, final int offset,
            final int count) {
            final int bytes = count << 2;
            if (position + bytes > QUEUE_BYTES) {
                position = 0;
            }
            queue.putBytes(position, buffer, offset, bytes);
            position += bytes;
            items += count;
        }
    }
}
