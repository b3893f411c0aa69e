package dev.overlap.core;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.overlap.core.MeshTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class ChunkTrackerTest {
    private static Mesh mesh;

    @BeforeAll
    static void setUp() {
        mesh = Mesh.builder().devices(1).threadsPerDevice(2).memoryPerDevice(4 << 20).build();
    }

    @AfterAll
    static void tearDown() {
        mesh.close();
    }

    @Test
    void oneToOneCountsOneWriterPerChunkAndChunksNeedNotDivideTheRegion() {
        final List<Integer> fired = new ArrayList<>();
        try (ChunkTracker t = ChunkTracker.builder().regionBytes(10_000).chunkBytes(4096).gridSize(3)
            .mapping(BlockMapping.oneToOne(4096)).onReady((c, e) -> fired.add(c)).build()) {
            assertEquals(3, t.chunkCount());
            assertEquals(10_000 - 8192, t.chunkLength(2));
            assertEquals(8192, t.chunkOffset(2));
            t.blockDone(2);
            t.blockDone(0);
            assertEquals(List.of(2, 0), fired);
            assertTrue(t.isReady(0));
            assertFalse(t.isReady(1));
            assertEquals(2, t.readyChunks());
            t.blockDone(1);
            assertTrue(t.allReady());
        }
    }

    @Test
    void aChunkFiresOnlyWhenItsLastWriterCompletes() {
        final List<Integer> fired = new ArrayList<>();
        // 8 blocks of 1 KiB each, chunks of 4 KiB: 4 writers per chunk.
        try (ChunkTracker t = ChunkTracker.builder().regionBytes(8192).chunkBytes(4096).gridSize(8)
            .mapping(BlockMapping.oneToOne(1024)).onReady((c, e) -> fired.add(c)).build()) {
            assertEquals(4, t.writers(0));
            for (final int b : new int[] {0, 5, 1, 2}) {
                t.blockDone(b);
            }
            assertEquals(List.of(), fired);
            t.blockDone(3);
            assertEquals(List.of(0), fired);
            t.blockDone(4);
            t.blockDone(6);
            t.blockDone(7);
            assertEquals(List.of(0, 1), fired);
        }
    }

    @Test
    void stridedMappingSpreadsEveryBlockOverManyChunks() {
        // 4 blocks, tiles of 1 KiB, region 16 KiB, chunks 4 KiB: every chunk has all 4 blocks as writers.
        final AtomicInteger fired = new AtomicInteger();
        try (ChunkTracker t = ChunkTracker.builder().regionBytes(16 << 10).chunkBytes(4 << 10).gridSize(4)
            .mapping(BlockMapping.strided(1 << 10)).onReady((c, e) -> fired.incrementAndGet()).build()) {
            for (int c = 0; c < 4; c++) {
                assertEquals(4, t.writers(c));
            }
            t.blockDone(0);
            t.blockDone(1);
            t.blockDone(2);
            assertEquals(0, fired.get());
            t.blockDone(3);
            assertEquals(4, fired.get());
        }
    }

    @Test
    void stencilHaloMakesNeighboursCoWriters() {
        try (ChunkTracker t = ChunkTracker.builder().regionBytes(4096 * 4).chunkBytes(4096).gridSize(4)
            .mapping(BlockMapping.stencil(4096, 64)).onReady((c, e) -> { }).build()) {
            assertEquals(2, t.writers(0));
            assertEquals(3, t.writers(1));
            assertEquals(3, t.writers(2));
            assertEquals(2, t.writers(3));
        }
    }

    @Test
    void customMappingAndValidation() {
        // Block b writes the mirrored chunk: a user-supplied mapping.
        final List<Integer> fired = new ArrayList<>();
        try (ChunkTracker t = ChunkTracker.builder().regionBytes(4000).chunkBytes(1000).gridSize(4)
            .mapping((b, grid, region, sink) -> sink.range((3 - b) * 1000L, (4 - b) * 1000L))
            .onReady((c, e) -> fired.add(c)).build()) {
            t.blockDone(0);
            assertEquals(List.of(3), fired);
        }
        assertMessage(assertThrows(IllegalArgumentException.class, () -> ChunkTracker.builder().regionBytes(4000)
            .chunkBytes(1000).gridSize(2).mapping(BlockMapping.oneToOne(1000)).onReady((c, e) -> { }).build()),
            "chunk 2 [2000, 3000) is written by no block");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> ChunkTracker.builder().regionBytes(4000)
            .chunkBytes(1000).gridSize(1).mapping((b, g, r, sink) -> sink.range(0, 5000)).onReady((c, e) -> { })
            .build()), "outside the region");
        assertMessage(assertThrows(IllegalStateException.class, () -> ChunkTracker.builder().regionBytes(4000)
            .build()), "missing: chunkBytes gridSize mapping onReady");
        assertThrows(IllegalArgumentException.class, () -> ChunkTracker.builder().chunkBytes(0));
        assertThrows(IllegalArgumentException.class, () -> ChunkTracker.builder().counterStride(32));
        assertThrows(IllegalArgumentException.class, () -> BlockMapping.oneToOne(0));
        assertThrows(IllegalArgumentException.class, () -> BlockMapping.stencil(10, -1));
    }

    @Test
    void rearmStartsANewEpochAndRefusesAnUnfinishedOne() {
        final List<String> fired = new ArrayList<>();
        try (ChunkTracker t = ChunkTracker.builder().regionBytes(2048).chunkBytes(1024).gridSize(4)
            .mapping(BlockMapping.oneToOne(512)).onReady((c, e) -> fired.add(c + "@" + e)).build()) {
            for (int epoch = 0; epoch < 3; epoch++) {
                assertEquals(epoch, t.epoch());
                t.blockDone(0);
                t.blockDone(1);
                t.blockDone(3);
                assertFalse(t.isReady(1));
                assertMessage(assertThrows(IllegalStateException.class, t::rearm), "only 1 of 2 chunks ready");
                t.blockDone(2);
                t.rearm();
            }
            assertEquals(List.of("0@0", "1@0", "0@1", "1@1", "0@2", "1@2"), fired);
            assertFalse(t.isReady(0), "a new epoch starts not ready");
        }
    }

    @Test
    void aBlockReportedTwiceIsAnErrorNotASecondFire() {
        final AtomicInteger fired = new AtomicInteger();
        try (ChunkTracker t = ChunkTracker.builder().regionBytes(1024).chunkBytes(1024).gridSize(1)
            .mapping(BlockMapping.oneToOne(1024)).onReady((c, e) -> fired.incrementAndGet()).build()) {
            t.blockDone(0);
            assertMessage(assertThrows(IllegalStateException.class, () -> t.blockDone(0)), "reported twice");
            assertEquals(1, fired.get());
            assertThrows(IndexOutOfBoundsException.class, () -> t.blockDone(1));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 64, 128})
    void trackedKernelFiresEveryChunkOnceAndTheListenerSeesEveryWrite(final int stride) {
        final int longs = 64 * 1024;
        final LongArray region = mesh.device(0).allocateLongs(longs);
        final int grid = 256;
        final int perBlock = longs / grid;
        final int chunkBytes = 3000;
        final int chunks = (longs * 8 + chunkBytes - 1) / chunkBytes;
        final AtomicIntegerArray fires = new AtomicIntegerArray(chunks);
        final AtomicIntegerArray stale = new AtomicIntegerArray(chunks);
        final long[] epochSeen = {0};
        try (ChunkTracker tracker = ChunkTracker.builder().regionBytes(longs * 8L).chunkBytes(chunkBytes)
            .gridSize(grid).counterStride(stride).mapping(BlockMapping.stencil(perBlock * 8L, 16))
            .onReady((chunk, epoch) -> {
                fires.incrementAndGet(chunk);
                final long from = (long)chunk * chunkBytes / 8;
                final long to = Math.min(longs, ((long)chunk * chunkBytes + chunkBytes + 7) / 8);
                for (long i = from; i < to; i++) {
                    if (region.get((int)i) != epochSeen[0] * 1_000_000 + i) {
                        stale.incrementAndGet(chunk);
                    }
                }
            }).build()) {
            for (int epoch = 0; epoch < 3; epoch++) {
                epochSeen[0] = epoch;
                final long base = epoch * 1_000_000L;
                mesh.device(0).launch(grid, tracker.track((ctx, block) -> {
                    // own range plus a 16-byte halo on each side, like BlockMapping.stencil
                    final int from = Math.max(0, block * perBlock - 2);
                    final int to = Math.min(longs, (block + 1) * perBlock + 2);
                    for (int i = from; i < to; i++) {
                        region.set(i, base + i);
                    }
                })).join();
                assertTrue(tracker.allReady());
                for (int c = 0; c < chunks; c++) {
                    assertEquals(epoch + 1, fires.get(c), "chunk " + c + " fires once per epoch");
                    assertEquals(0, stale.get(c), "chunk " + c + " listener saw unwritten data");
                }
                tracker.rearm();
            }
        } finally {
            mesh.device(0).free(region);
        }
    }
}
