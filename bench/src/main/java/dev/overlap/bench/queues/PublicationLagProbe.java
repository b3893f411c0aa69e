package dev.overlap.bench.queues;

import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.Publication;

import java.util.Arrays;
import java.util.Locale;

/**
 * Publication lag under sustained pushing: two threads push single items into one {@link IntCounterRing} as fast
 * as they can (each pops a batch of 64 after every 64 pushes so the ring never fills). After each push returns,
 * the pusher notes the time and {@code reservedIndex()} (an upper bound of its item's position + 1); whenever
 * {@code publishedIndex()} passes that bound, the item was poppable, and the lag is the time since the push
 * returned (an upper bound: the bound may include the other thread's later reservation).
 *
 * <pre>java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar \
 *   dev.overlap.bench.queues.PublicationLagProbe [seconds]</pre>
 * Prints median, p99, p99.9 and max lag for ORDERED, WINDOWED (windows of 64 and 1024) and WINDOWED with one
 * window spanning the ring (the Atos rule alone: end moves only when the whole reservation frontier is written).
 */
public final class PublicationLagProbe {
    private static final int CAPACITY = 1 << 14;
    private static final int SAMPLES = 4_000_000;

    private PublicationLagProbe() {
    }

    public static void main(final String[] args) throws Exception {
        final double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2.0;
        System.out.println("publication lag, 2 threads pushing single items, " + seconds + " s per case, "
            + Runtime.getRuntime().availableProcessors() + " CPUs");
        run("ORDERED", Publication.ORDERED, 64, seconds);
        run("WINDOWED window=64", Publication.WINDOWED, 64, seconds);
        run("WINDOWED window=1024", Publication.WINDOWED, 1024, seconds);
        run("WINDOWED window=16384 (Atos rule alone)", Publication.WINDOWED, CAPACITY, seconds);
    }

    static void run(final String name, final Publication publication, final int window, final double seconds)
        throws Exception {
        final IntCounterRing ring = new IntCounterRing(BenchQueue.region(IntCounterRing.requiredBytes(CAPACITY, window)),
            CAPACITY, window, publication);
        final Pusher[] pushers = {new Pusher(ring), new Pusher(ring)};
        final Thread[] threads = new Thread[pushers.length];
        final long deadline = System.nanoTime() + (long)(seconds * 1e9);
        for (int i = 0; i < threads.length; i++) {
            final Pusher p = pushers[i];
            threads[i] = new Thread(() -> p.run(deadline), "lag-pusher-" + i);
            threads[i].start();
        }
        for (final Thread t : threads) {
            t.join();
        }
        int n = 0;
        long pushes = 0;
        for (final Pusher p : pushers) {
            n += p.count;
            pushes += p.pushes;
        }
        final long[] all = new long[n];
        int at = 0;
        for (final Pusher p : pushers) {
            System.arraycopy(p.lags, 0, all, at, p.count);
            at += p.count;
        }
        Arrays.sort(all);
        System.out.printf(Locale.ROOT, "%-42s pushes/s %6.1f M  samples %8d  lag ns: median %7d  p99 %8d  p99.9 %9d  "
                + "max %10d%n", name, pushes / seconds / 1e6, n, pct(all, 0.5), pct(all, 0.99), pct(all, 0.999),
            n == 0 ? 0 : all[n - 1]);
    }

    static long pct(final long[] sorted, final double q) {
        return sorted.length == 0 ? 0 : sorted[(int)Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    }

    static final class Pusher {
        final IntCounterRing ring;
        final long[] lags = new long[SAMPLES];
        final long[] pendingBound = new long[1 << 16];
        final long[] pendingTime = new long[1 << 16];
        final int[] sink = new int[64];
        int head;
        int tail;
        int count;
        long pushes;

        Pusher(final IntCounterRing ring) {
            this.ring = ring;
        }

        void run(final long deadline) {
            int sincePop = 0;
            while (true) {
                if (ring.offer(1) < 0) { // BACK_PRESSURED
                    ring.poll(sink, 0, sink.length);
                    continue;
                }
                pushes++;
                final long now = System.nanoTime();
                final int mask = pendingBound.length - 1;
                if (tail - head < pendingBound.length) {
                    pendingBound[tail & mask] = ring.reservedIndex();
                    pendingTime[tail & mask] = now;
                    tail++;
                }
                final long published = ring.publishedIndex();
                final long seen = published >= pendingBound[head & mask] && head < tail ? System.nanoTime() : 0;
                while (head < tail && pendingBound[head & mask] <= published) {
                    if (count < lags.length) {
                        lags[count++] = Math.max(0, seen - pendingTime[head & mask]);
                    }
                    head++;
                }
                if (++sincePop == 64) {
                    sincePop = 0;
                    ring.poll(sink, 0, sink.length);
                    if (now > deadline) {
                        break;
                    }
                }
            }
        }
    }
}
