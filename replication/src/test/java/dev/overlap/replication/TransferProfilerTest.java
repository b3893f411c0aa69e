package dev.overlap.replication;

import dev.overlap.core.Mesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransferProfilerTest {
    private static Mesh mesh;

    /** Two producers, each fills its 64 KiB slice in 16 blocks with a little arithmetic. */
    static final class FillWorkload implements TransferWorkload {
        int iterations;

        @Override
        public String name() {
            return "fill-128k";
        }

        @Override
        public long elements() {
            return 16 * 1024;
        }

        @Override
        public int gridSize() {
            return 16;
        }

        @Override
        public void launchIteration(final ReplicatedRegion region, final int iteration) {
            iterations++;
            for (int d = 0; d < 2; d++) {
                final int device = d;
                final int base = (int)region.sliceStart(d);
                region.launch(d, (ctx, block) -> {
                    for (int i = base + block * 512; i < base + (block + 1) * 512; i++) {
                        region.putLong(device, i, i * 31L + iteration);
                    }
                });
            }
        }
    }

    @BeforeAll
    static void setUp() {
        mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20).build();
    }

    @AfterAll
    static void tearDown() {
        mesh.close();
    }

    @Test
    void sweepMeasuresEveryApplicablePointAndPicksTheFastest() {
        final FillWorkload workload = new FillWorkload();
        final List<String> progress = new ArrayList<>();
        final TransferProfiler profiler = new TransferProfiler().chunkSizes(List.of(4096, 65536, 1 << 20))
            .transferThreads(List.of(0, 1)).repetitions(1, 3).progress(progress::add);
        final List<TransferConfig> points = profiler.points(mesh, workload);
        // INLINE once; POLLING x {4K, 64K} x 1 thread; TRIGGERED x {4K, 64K} x {0, 1}; BULK x {4K, 64K}
        assertEquals(1 + 2 + 4 + 2, points.size(), points.toString());
        final TransferProfile profile = profiler.profile(mesh, workload);
        assertEquals(points.size(), profile.points().size());
        assertEquals(points.size(), progress.size());
        assertEquals(points.size() * 4, workload.iterations);
        final long best = profile.points().stream().mapToLong(TransferProfile.Point::medianNanos).min().orElseThrow();
        assertTrue(profile.points().stream().anyMatch(p -> p.medianNanos() == best && p.config().equals(profile.choice())));
        assertEquals("fill-128k", profile.workload());
    }

    @Test
    void metricsComeFromOneMeasurementOfFourRuns() {
        final TransferConfig config = new TransferConfig(TransferMode.TRIGGERED, 4096, 1);
        final TransferMetrics m = TransferMetrics.measure(mesh, new FillWorkload(), config, 1, 3);
        assertEquals(config, m.config());
        assertTrue(m.noneNanos() > 0 && m.trackOnlyNanos() > 0 && m.bulkNanos() > 0 && m.configNanos() > 0);
        assertTrue(m.overlapFraction() >= 0 && m.overlapFraction() <= 1);
        assertEquals((double)m.bulkNanos() / m.configNanos(), m.speedupOverBulk(), 1e-9);
        assertTrue(m.toString().contains("TRIGGERED/4KiB/1t"), m.toString());
    }

    @Test
    void badSweepSettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new TransferProfiler().modes(List.of(TransferMode.NONE)));
        assertThrows(IllegalArgumentException.class, () -> new TransferProfiler().chunkSizes(List.of(12)));
        assertThrows(IllegalArgumentException.class, () -> new TransferProfiler().transferThreads(List.of(65)));
        assertThrows(IllegalArgumentException.class, () -> new TransferProfiler().repetitions(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new TransferConfig(TransferMode.POLLING, 4096, 0));
        assertEquals(List.of(4096, 16384, 65536), TransferProfiler.powersOfFour(4096, 65536));
        assertEquals(List.of(), TransferProfiler.powersOfFour(8, 4));
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
            () -> TransferProfiler.powersOfFour(0, 65536));
        assertTrue(zero.getMessage().contains("from must be >= 1, was 0"), zero.getMessage());
    }
}
