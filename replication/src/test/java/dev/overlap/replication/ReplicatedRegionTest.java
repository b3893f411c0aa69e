package dev.overlap.replication;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.Kernel;
import dev.overlap.core.KernelFailedException;
import dev.overlap.core.Mesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class ReplicatedRegionTest {
    private static Mesh mesh;

    @BeforeAll
    static void setUp() {
        mesh = Mesh.builder().devices(3).threadsPerDevice(2).memoryPerDevice(8 << 20).build();
    }

    @AfterAll
    static void tearDown() {
        mesh.close();
    }

    static long value(final long index, final int iteration) {
        return index * 1_000_003L + iteration * 7919L + 1;
    }

    enum Shape { ONE_TO_ONE, STRIDED, STENCIL }

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        for (final TransferMode mode : new TransferMode[] {TransferMode.INLINE, TransferMode.POLLING,
            TransferMode.TRIGGERED, TransferMode.BULK}) {
            for (final Shape shape : Shape.values()) {
                // 4000 B chunks do not divide the 96 KiB slices; 1 and 2 transfer threads (0 = inline trigger)
                list.add(Arguments.of(mode, shape, 4000, mode == TransferMode.POLLING ? 2 : 0));
                list.add(Arguments.of(mode, shape, 64 << 10, 1));
            }
        }
        return list.stream();
    }

    @ParameterizedTest(name = "{0} {1} chunk={2} threads={3}")
    @MethodSource("cases")
    void everyReplicaHoldsTheWholeRegionAfterEachIteration(final TransferMode mode, final Shape shape,
        final int chunkBytes, final int threads) {
        final int elements = 3 * 12 * 1024;
        final int grid = 48;
        final int perBlock = elements / 3 / grid;
        final BlockMapping mapping;
        switch (shape) {
            case STRIDED:
                mapping = BlockMapping.strided(64);
                break;
            case STENCIL:
                mapping = BlockMapping.stencil(perBlock * 8L, 16);
                break;
            default:
                mapping = BlockMapping.oneToOne(perBlock * 8L);
        }
        try (ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(elements).mode(mode)
            .chunkBytes(chunkBytes).transferThreads(threads).gridSize(grid).mapping(mapping).build()) {
            for (int it = 0; it < 3; it++) {
                final int iteration = it;
                for (int d = 0; d < 3; d++) {
                    final int device = d;
                    final int base = (int)region.sliceStart(d);
                    final int slice = (int)region.sliceLength(d);
                    final Kernel kernel;
                    if (shape == Shape.STRIDED) {
                        kernel = (ctx, block) -> {
                            for (int tile = block * 8; tile < slice; tile += grid * 8) {
                                for (int i = tile; i < tile + 8; i++) {
                                    region.putLong(device, base + i, value(base + i, iteration));
                                }
                            }
                        };
                    } else {
                        final int halo = shape == Shape.STENCIL ? 2 : 0;
                        kernel = (ctx, block) -> {
                            final int from = Math.max(0, block * perBlock - halo);
                            final int to = Math.min(slice, (block + 1) * perBlock + halo);
                            for (int i = from; i < to; i++) {
                                region.putLong(device, base + i, value(base + i, iteration));
                            }
                        };
                    }
                    region.launch(d, kernel);
                }
                region.awaitTransfers();
                for (int d = 0; d < 3; d++) {
                    for (int i = 0; i < elements; i++) {
                        if (region.getLong(d, i) != value(i, it)) {
                            throw new AssertionError(mode + " iteration " + it + ": dev" + d + " element " + i
                                + " is " + region.getLong(d, i) + ", expected " + value(i, it));
                        }
                    }
                }
            }
            assertEquals(3, region.iteration());
            if (mode == TransferMode.POLLING || mode == TransferMode.TRIGGERED) {
                assertEquals(3L * region.chunkCount(), region.copiedChunks(), "each chunk copied once per iteration");
                assertEquals(3L * elements * 8 * 2, region.copiedBytes());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = TransferMode.class, names = {"NONE", "TRACK_ONLY"})
    void measurementModesLeaveOtherReplicasAlone(final TransferMode mode) {
        try (ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(4096).mode(mode).chunkBytes(4096)
            .gridSize(4).producers(1).build()) {
            region.launch(1, (ctx, block) -> {
                for (int i = block * 1024; i < (block + 1) * 1024; i++) {
                    region.putLong(1, i, 5);
                }
            });
            region.awaitTransfers();
            assertEquals(5, region.getLong(1, 4095));
            assertEquals(0, region.getLong(0, 4095));
            assertEquals(mode == TransferMode.TRACK_ONLY ? 8 : 0, region.copiedChunks());
        }
    }

    @Test
    void aSingleProducerFeedsEveryOtherDevice() {
        try (ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(10_000).mode(TransferMode.TRIGGERED)
            .chunkBytes(8192).transferThreads(2).gridSize(10).producers(2).build()) {
            assertEquals(0, region.sliceLength(0));
            assertEquals(10_000, region.sliceLength(2));
            region.launch(2, (ctx, block) -> {
                for (int i = block * 1000; i < (block + 1) * 1000; i++) {
                    region.putDouble(2, i, i * 0.5);
                }
            });
            region.awaitTransfers();
            assertEquals(4999.5, region.getDouble(0, 9999));
            assertEquals(4999.5, region.getDouble(1, 9999));
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> region.launch(0, (c, b) -> { }));
            assertTrue(e.getMessage().contains("dev0 produces no slice of this region (producers: dev2)"),
                e.getMessage());
        }
    }

    @Test
    void misuseIsReportedClearly() {
        try (ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(4096).gridSize(4).build()) {
            region.launch(0, (c, b) -> { });
            assertThrows(IllegalStateException.class, () -> region.launch(0, (c, b) -> { }));
            final IllegalStateException e = assertThrows(IllegalStateException.class, region::awaitTransfers);
            assertTrue(e.getMessage().contains("dev1 was not launched"), e.getMessage());
        }
        assertThrows(IllegalStateException.class, () -> ReplicatedRegion.builder(mesh).elements(10).build());
        assertThrows(IllegalArgumentException.class, () -> ReplicatedRegion.builder(mesh).chunkBytes(12));
        assertThrows(IllegalArgumentException.class, () -> ReplicatedRegion.builder(mesh).transferThreads(-1));
        assertThrows(IllegalArgumentException.class, () -> ReplicatedRegion.builder(mesh).producers(0, 0));
        assertThrows(IllegalArgumentException.class, () -> ReplicatedRegion.builder(mesh).producers(3));
        assertThrows(IllegalArgumentException.class, () -> ReplicatedRegion.builder(mesh).elements(4).gridSize(1)
            .mode(TransferMode.POLLING).transferThreads(0).build());
        assertThrows(IllegalArgumentException.class, () -> ReplicatedRegion.builder(mesh).elements(2).gridSize(1)
            .build());
    }

    @Test
    void aFailingKernelSurfacesFromAwaitTransfers() {
        try (ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(4096).gridSize(4).producers(0)
            .mode(TransferMode.POLLING).build()) {
            region.launch(0, (c, b) -> {
                throw new IllegalStateException("bad block");
            });
            assertThrows(KernelFailedException.class, region::awaitTransfers);
        }
    }
}
