package dev.overlap.graph.async;

import dev.overlap.core.Mesh;
import dev.overlap.core.World;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.IntPriorityWorklist;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Inbox;

/**
 * How the async apps turn {@link AppSettings} into a {@link DistributedWorklist} and its run parameters, and how
 * much device memory that takes. Stateless; thread-safe.
 *
 * <ul>
 *   <li>Remote pushes as {@link AppSettings#remote()} says (batched, or eager: Atos' latency setting).</li>
 *   <li>Inbox rings of at least 1 MiB, and at least the smallest ring that takes a batch
 *       ({@link AggregatorConfig#smallestRing}).</li>
 *   <li>Local queues of {@code 5/4 * owned + 4096} tasks rounded up to a power of two: a run rarely holds more than
 *       each owned vertex once, and more only spills (correctly, under a lock) to the overflow list.</li>
 * </ul>
 */
final class Worklists {
    static final int MIN_RING = 1 << 20;
    private static final int MAX_QUEUE = 1 << 28;
    /** Allocation slack per device: alignment of every array and queue region, and the transport's own counters. */
    private static final long SLACK = 64 << 10;

    private Worklists() {
    }

    /** @return the inbox ring bytes for {@code s} */
    static int ringCapacity(final AppSettings s) {
        final AggregatorConfig remote = s.remote();
        return remote.isEager() ? MIN_RING : Math.max(MIN_RING, AggregatorConfig.smallestRing(remote.batchBytes()));
    }

    /** @return tasks each device's queue holds before spilling */
    static int queueCapacity(final int maxOwned) {
        final long want = maxOwned + (maxOwned >> 2) + 4096L;
        return (int)Math.min(MAX_QUEUE, Long.highestOneBit(want - 1) << 1);
    }

    /** @return the worker shape of {@code s} */
    static WorkerShape shape(final AppSettings s) {
        return WorkerShape.block(s.fetch());
    }

    /** @return the kernel mode of {@code s} */
    static KernelMode mode(final AppSettings s) {
        return s.kernel() == AppSettings.KernelStyle.DISCRETE ? KernelMode.DISCRETE : KernelMode.PERSISTENT;
    }

    /**
     * Builds the worklist of a run: FIFO, or priority with the given first threshold and band width.
     *
     * @param maxOwned most vertices a device owns
     */
    static DistributedWorklist build(final Mesh mesh, final AppSettings s, final int maxOwned, final int threshold,
        final int delta) {
        final DistributedWorklist.Builder b = DistributedWorklist.builder(mesh).queueCapacity(queueCapacity(maxOwned))
            .remote(s.remote()).ringCapacity(ringCapacity(s));
        if (s.queue() == AppSettings.Queue.PRIORITY) {
            b.priority(threshold, delta);
        } else {
            b.fifo();
        }
        return b.build();
    }

    /**
     * @return device bytes the worklist of a run takes per device (queue and inbox), plus allocation slack, for the
     *         larger of the two queue kinds when {@code s} is null
     */
    static long bytesPerDevice(final int maxOwned, final int devices, final int workers, final AppSettings s) {
        final int capacity = queueCapacity(Math.max(1, maxOwned));
        final long fifo = IntCounterRing.requiredBytes(capacity) + 256L;
        final long priority = IntPriorityWorklist.requiredBytes(capacity) + 256L;
        final long queue = s == null ? Math.max(fifo, priority)
            : s.queue() == AppSettings.Queue.PRIORITY ? priority : fifo;
        final int ring = s == null ? MIN_RING : ringCapacity(s);
        final long inbox = Inbox.requiredBytes(ring, devices * workers + 16) + 4096L;
        return queue + inbox + SLACK;
    }

    /**
     * What the worklist runs of one app run did, summed over its runs (PageRank may run the worklist more than once):
     * this process's share across processes ({@link WorklistStats} are per rank). Host only.
     */
    static final class Traffic {
        private long localPushes;
        private long remotePushes;
        private long remoteAtomics;
        private long messages;
        private long bytes;

        /** Adds one run's statistics. */
        void add(final WorklistStats st) {
            localPushes += st.localPushes();
            remotePushes += st.remotePushes();
            remoteAtomics += st.remoteAtomics();
            messages += st.messagesSent();
            bytes += st.bytesSent();
        }

        /**
         * Collective across processes: each rank counts its own devices' workers and its own worklist statistics,
         * and this adds them up over every rank of {@code world} (one reduction, so also a barrier: every rank has
         * done its last read of the others' memory once it returns). In one process the local counts.
         *
         * @return the work counts: {@code visited} and {@code edges} from the app's counters, pushes, messages and
         *         bytes from the worklist, remote atomics from both (the app's direct atomics on other devices'
         *         memory and the worklist's tracked ones)
         */
        WorkCounts counts(final World world, final long iterations, final long ideal, final WorkerCounters c) {
            final long[] t = {c.sum(WorkerCounters.VISITED), c.sum(WorkerCounters.EDGES), localPushes, remotePushes,
                c.sum(WorkerCounters.REMOTE_ATOMICS) + remoteAtomics, messages, bytes};
            world.allReduceSum(t);
            return new WorkCounts(iterations, t[0], ideal, t[1], t[2], t[3], t[4], t[5], t[6]);
        }
    }
}
