package dev.overlap.replication;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.Device;
import dev.overlap.core.Mesh;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.WorldAccess;
import dev.overlap.core.WorldConfig;
import dev.overlap.testing.TestThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.overlap.testing.TestThreads.inParallel;
import static dev.overlap.testing.TestThreads.runInParallel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replicated region on a mesh across processes, the ranks played by meshes of one JVM (each on its own thread, as
 * the processes would): each rank launches its own producers, tracks and copies their chunks into the other ranks'
 * replicas, and {@code awaitTransfers()} returns only once every rank's copies are done, so that every replica, this
 * rank's and the others', holds the whole region; a rank that hangs is reported to the one waiting.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReplicatedRegionWorldTest {
    private static final int RANKS = 2;
    private static final int DEVICES = 4;
    private static final int ELEMENTS = 3 * 4096;
    private static final int GRID = 6;

    @TempDir
    Path tmp;

    private Mesh[] meshes(final String job) {
        return meshes(job, 5000);
    }

    private Mesh[] meshes(final String job, final long peerTimeoutMillis) {
        return inParallel(RANKS, r -> Mesh.builder().name("r" + r).devices(DEVICES).threadsPerDevice(2)
            .memoryPerDevice(1 << 20).world(WorldConfig.sharedMemory(tmp.resolve(job), RANKS, r)
                .joinTimeout(30, TimeUnit.SECONDS).peerTimeout(peerTimeoutMillis, TimeUnit.MILLISECONDS).build())
            .build()).toArray(new Mesh[0]);
    }

    private static void closeAll(final Mesh[] meshes) {
        runInParallel(meshes.length, r -> meshes[r].close());
    }

    static long value(final long index, final int iteration) {
        return index * 1_000_003L + iteration * 7919L + 1;
    }

    static Stream<Arguments> modes() {
        return Stream.of(Arguments.of(TransferMode.INLINE, 0), Arguments.of(TransferMode.POLLING, 1),
            Arguments.of(TransferMode.TRIGGERED, 0), Arguments.of(TransferMode.TRIGGERED, 1),
            Arguments.of(TransferMode.BULK, 0));
    }

    private static ReplicatedRegion region(final Mesh mesh, final TransferMode mode, final int threads) {
        return ReplicatedRegion.builder(mesh).elements(ELEMENTS).gridSize(GRID).mode(mode).chunkBytes(4000)
            .transferThreads(threads).build();
    }

    /** The producing kernel of {@code device}: every element of its slice gets the iteration's value. */
    private static void launch(final ReplicatedRegion region, final int device, final int iteration) {
        final int from = (int)region.sliceStart(device);
        final int length = (int)region.sliceLength(device);
        final int perBlock = (length + GRID - 1) / GRID;
        region.launch(device, (ctx, block) -> {
            for (int i = block * perBlock, end = Math.min(length, i + perBlock); i < end; i++) {
                region.putLong(device, from + i, value(from + i, iteration));
            }
        });
    }

    @ParameterizedTest(name = "{0} threads={1}")
    @MethodSource("modes")
    void everyReplicaOfEveryRankHoldsTheWholeRegionAfterEachIteration(final TransferMode mode, final int threads) {
        final Mesh[] m = meshes("region-" + mode + threads);
        try {
            runInParallel(RANKS, r -> {
                try (ReplicatedRegion region = region(m[r], mode, threads)) {
                    for (int it = 0; it < 3; it++) {
                        for (final Device d : m[r].localDevices()) {
                            launch(region, d.id(), it);
                        }
                        region.awaitTransfers();
                        for (int d = 0; d < DEVICES; d++) { // this rank's replicas and the other rank's
                            for (int i = 0; i < ELEMENTS; i++) {
                                assertEquals(value(i, it), region.getLong(d, i), "rank " + r + ", " + mode
                                    + ", iteration " + it + ": dev" + d + "[" + i + "]");
                            }
                        }
                        // nobody overwrites a replica with the next iteration before every rank has read this one
                        m[r].world().barrier();
                    }
                    assertEquals(3, region.iteration());
                }
            });
        } finally {
            closeAll(m);
        }
    }

    @Test
    void awaitTransfersWaitsForTheOtherRanksCopiesAndRefusesTheirDevices() {
        final Mesh[] m = meshes("wait");
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch rank0Timed = new CountDownLatch(1);
        try {
            runInParallel(RANKS, r -> {
                try (ReplicatedRegion region = region(m[r], TransferMode.TRIGGERED, 0)) {
                    if (r == 0) {
                        final IllegalStateException e = assertThrows(IllegalStateException.class,
                            () -> launch(region, 2, 0));
                        assertTrue(e.getMessage().contains("rank 1"), e.getMessage());
                        launch(region, 0, 0);
                        launch(region, 1, 0);
                        // rank 1's producer is held: this rank's part is done, the iteration is not
                        try {
                            assertFalse(region.awaitTransfers(200, TimeUnit.MILLISECONDS), "returned before rank 1's "
                                + "copies were done");
                        } finally {
                            rank0Timed.countDown();
                        }
                        region.awaitTransfers(); // the barrier alone is left
                    } else {
                        final int from = (int)region.sliceStart(2);
                        region.launch(2, (ctx, block) -> {
                            if (block == 0) {
                                TestThreads.awaitRelease(release);
                            }
                            final int perBlock = ((int)region.sliceLength(2) + GRID - 1) / GRID;
                            for (int i = block * perBlock, end = Math.min((int)region.sliceLength(2), i + perBlock);
                                i < end; i++) {
                                region.putLong(2, from + i, value(from + i, 0));
                            }
                        });
                        launch(region, 3, 0);
                        TestThreads.awaitRelease(rank0Timed);
                        release.countDown();
                        region.awaitTransfers();
                    }
                    for (int i = 0; i < ELEMENTS; i++) {
                        assertEquals(value(i, 0), region.getLong(r == 0 ? 0 : 3, i), "rank " + r + " [" + i + "]");
                    }
                    m[r].world().barrier();
                }
            });
        } finally {
            release.countDown();
            closeAll(m);
        }
    }

    @Test
    void aRankThatHangsIsReportedToTheRankWaitingForTheIteration() {
        final Mesh[] m = meshes("hang", 300);
        final ReplicatedRegion[] regions = inParallel(RANKS, r -> region(m[r], TransferMode.BULK, 0))
            .toArray(new ReplicatedRegion[0]);
        try {
            WorldAccess.stopMonitor(m[1].world()); // rank 1 "hangs": no heartbeat, no part in the iteration
            launch(regions[0], 0, 0);
            launch(regions[0], 1, 0);
            final PeerFailedException e = assertThrows(PeerFailedException.class, regions[0]::awaitTransfers);
            assertEquals(1, e.rank(), e.getMessage());
        } finally {
            // the world is broken: each rank still closes its region (its collective free gives up) and its mesh
            runInParallel(RANKS, r -> regions[r].close());
            closeAll(m);
        }
    }
}
