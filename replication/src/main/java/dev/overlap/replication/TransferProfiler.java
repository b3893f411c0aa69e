package dev.overlap.replication;

import dev.overlap.core.Mesh;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * PROACT's profiling pass: a brute-force sweep of transfer mode x chunk size x transfer threads on the user's own
 * workload, each point timed as the median of repeated iterations after warm-up, the fastest chosen. Points that
 * do not fit the workload (a chunk larger than a slice, POLLING without threads) are skipped. Not thread-safe;
 * run one sweep at a time on an otherwise idle mesh.
 */
public final class TransferProfiler {
    private List<TransferMode> modes = List.of(TransferMode.INLINE, TransferMode.POLLING, TransferMode.TRIGGERED,
        TransferMode.BULK);
    private List<Integer> chunkSizes = powersOfFour(4 << 10, 16 << 20);
    private List<Integer> threads = List.of(0, 1, 2);
    private int warmup = 2;
    private int measured = 5;
    private Consumer<String> progress = s -> { };

    /**
     * @param from the first size, >= 1 (the list is empty when it is above {@code to})
     * @param to the largest size allowed in the list
     * @return every power of four times {@code from} up to {@code to}
     * @throws IllegalArgumentException if {@code from < 1} (the list would never end)
     */
    public static List<Integer> powersOfFour(final int from, final int to) {
        if (from < 1) {
            throw new IllegalArgumentException("powersOfFour: from must be >= 1, was " + from);
        }
        final List<Integer> list = new ArrayList<>();
        for (long c = from; c <= to; c *= 4) {
            list.add((int)c);
        }
        return list;
    }

    /**
     * @param modes the modes to try (NONE and TRACK_ONLY are measurements, not choices)
     * @return this builder
     */
    public TransferProfiler modes(final List<TransferMode> modes) {
        if (modes.isEmpty() || modes.contains(TransferMode.NONE) || modes.contains(TransferMode.TRACK_ONLY)) {
            throw new IllegalArgumentException("modes must be a non-empty subset of INLINE, POLLING, TRIGGERED, BULK");
        }
        this.modes = List.copyOf(modes);
        return this;
    }

    /**
     * @param sizes chunk sizes to try (multiples of 8)
     * @return this builder
     */
    public TransferProfiler chunkSizes(final List<Integer> sizes) {
        if (sizes.isEmpty()) {
            throw new IllegalArgumentException("chunkSizes must not be empty");
        }
        for (final int s : sizes) {
            new TransferConfig(TransferMode.BULK, s, 0);
        }
        this.chunkSizes = List.copyOf(sizes);
        return this;
    }

    /**
     * @param counts transfer-thread counts to try (0..64; 0 only applies to TRIGGERED)
     * @return this builder
     */
    public TransferProfiler transferThreads(final List<Integer> counts) {
        if (counts.isEmpty()) {
            throw new IllegalArgumentException("transferThreads must not be empty");
        }
        for (final int t : counts) {
            new TransferConfig(TransferMode.TRIGGERED, 8, t);
        }
        this.threads = List.copyOf(counts);
        return this;
    }

    /**
     * @param warmup iterations before timing, >= 0
     * @param measured timed iterations, >= 1
     * @return this builder
     */
    public TransferProfiler repetitions(final int warmup, final int measured) {
        checkRepetitions(warmup, measured);
        this.warmup = warmup;
        this.measured = measured;
        return this;
    }

    static void checkRepetitions(final int warmup, final int measured) {
        if (warmup < 0 || measured < 1) {
            throw new IllegalArgumentException("need warmup >= 0 and measured >= 1, was " + warmup + " and " + measured);
        }
    }

    /**
     * @param progress told about each point as it is measured (e.g. {@code System.err::println})
     * @return this builder
     */
    public TransferProfiler progress(final Consumer<String> progress) {
        this.progress = Objects.requireNonNull(progress, "progress");
        return this;
    }

    /**
     * @param mesh the mesh the sweep runs on
     * @param workload the workload measured at each point
     * @return the points the sweep will measure for {@code workload} on {@code mesh}
     */
    public List<TransferConfig> points(final Mesh mesh, final TransferWorkload workload) {
        final int producers = workload.producers() != null ? workload.producers().length : mesh.deviceCount();
        final long sliceBytes = workload.elements() / producers * 8;
        final List<TransferConfig> points = new ArrayList<>();
        for (final TransferMode mode : modes) {
            for (final int chunk : chunkSizes) {
                if (mode != TransferMode.INLINE && chunk > sliceBytes && chunk != chunkSizes.get(0)) {
                    continue;
                }
                if (mode == TransferMode.INLINE || mode == TransferMode.BULK) {
                    points.add(new TransferConfig(mode, chunk, 0));
                    if (mode == TransferMode.INLINE) {
                        break;
                    }
                    continue;
                }
                for (final int t : threads) {
                    if (mode == TransferMode.POLLING && t == 0) {
                        continue;
                    }
                    points.add(new TransferConfig(mode, chunk, t));
                }
            }
        }
        return points;
    }

    /**
     * Runs the sweep.
     *
     * @param mesh the mesh the sweep runs on
     * @param workload the workload measured at each point
     * @return the profile: the fastest point and every measurement
     */
    public TransferProfile profile(final Mesh mesh, final TransferWorkload workload) {
        final List<TransferProfile.Point> results = new ArrayList<>();
        TransferProfile.Point best = null;
        for (final TransferConfig point : points(mesh, workload)) {
            final long median = IterationTimer.medianNanos(mesh, workload, point, warmup, measured);
            final TransferProfile.Point p = new TransferProfile.Point(point, median);
            results.add(p);
            progress.accept(String.format("%-24s %10.3f ms", point, median / 1e6));
            if (best == null || median < best.medianNanos()) {
                best = p;
            }
        }
        return new TransferProfile(workload.name(), TransferProfile.describeMachine(), best.config(), results);
    }
}
