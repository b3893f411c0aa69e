package dev.overlap.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MeshTest {
    @Test
    void builderRejectsBadArgumentsWithTheirNames() {
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().devices(0)), "devices");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().threadsPerDevice(0)),
            "threadsPerDevice");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().memoryPerDevice(100)),
            "memoryPerDevice");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().memoryPerDevice(3L << 30)),
            "memoryPerDevice");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().parkAfterMicros(-1)),
            "parkAfterMicros");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().name(" ")), "name");
        assertThrows(NullPointerException.class, () -> Mesh.builder().backing(null));
    }

    @Test
    void workersHaveReadableNamesAndEveryWorkerRuns() {
        final Set<String> names = ConcurrentHashMap.newKeySet();
        try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(2).memoryPerDevice(1 << 16).build()) {
            assertEquals(2, mesh.deviceCount());
            assertEquals(2, mesh.device(1).workerCount());
            for (int d = 0; d < 2; d++) {
                final KernelLaunch persistent = mesh.device(d).launchPersistent(ctx -> {
                    names.add(Thread.currentThread().getName());
                    final String device = "-dev" + ctx.deviceId() + "-";
                    if (names.stream().filter(n -> n.contains(device)).count() == ctx.workerCount()) {
                        ctx.stopLaunch();
                    }
                    return 0;
                });
                persistent.join();
            }
        }
        assertEquals(Set.of("overlap-dev0-w0", "overlap-dev0-w1", "overlap-dev1-w0", "overlap-dev1-w1"), names);
    }

    @Test
    void deviceIdsAreChecked() {
        try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 16).build()) {
            assertMessage(assertThrows(IndexOutOfBoundsException.class, () -> mesh.device(2)), "devices 0..1");
            assertThrows(IndexOutOfBoundsException.class, () -> mesh.memory(-1));
        }
    }

    @Test
    void symmetricAllocationHasTheSameOffsetEverywhereAndStartsZeroed() {
        try (Mesh mesh = Mesh.builder().devices(3).threadsPerDevice(1).memoryPerDevice(1 << 16).build()) {
            final SymmetricArray<LongArray> a = mesh.allocateLongs(100);
            final SymmetricArray<IntArray> b = mesh.allocateInts(10);
            for (int d = 0; d < 3; d++) {
                assertEquals(a.offset(), a.on(d).offset());
                assertEquals(d, a.on(d).device());
                assertEquals(b.offset(), b.on(d).offset());
            }
            assertTrue(b.offset() >= a.offset() + 800);
            a.on(1).set(5, 42);
            a.close();
            a.close();
            final SymmetricArray<LongArray> c = mesh.allocateLongs(100);
            assertEquals(a.offset(), c.offset(), "first fit reuses the freed range");
            assertEquals(0, c.on(1).get(5), "freed memory comes back zeroed");
        }
    }

    @Test
    void outOfMemoryNamesTheDeviceTheRequestAndWhatIsFree() {
        try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 16).build()) {
            mesh.device(1).allocateLongs(6000);
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> mesh.allocateLongs(5000));
            assertMessage(e, "40000 bytes");
            assertMessage(e, "dev1: 17536 of 65536 bytes free");
            assertMessage(e, "same free range on every device");
            final IllegalStateException local = assertThrows(IllegalStateException.class,
                () -> mesh.device(0).allocateInts(20000));
            assertMessage(local, "dev0");
            assertMessage(assertThrows(IllegalArgumentException.class, () -> mesh.allocateInts(0)), "array length");
        }
    }

    @Test
    void doubleFreeIsAnError() {
        try (Mesh mesh = Mesh.builder().devices(1).threadsPerDevice(1).memoryPerDevice(1 << 16).build()) {
            final IntArray a = mesh.device(0).allocateInts(10);
            mesh.device(0).free(a);
            assertMessage(assertThrows(IllegalStateException.class, () -> mesh.device(0).free(a)), "already freed");
        }
    }

    @Test
    void closeIsIdempotentAndLaunchesAfterCloseFail() {
        final Mesh mesh = Mesh.builder().devices(1).threadsPerDevice(2).memoryPerDevice(1 << 16).build();
        final Device device = mesh.device(0);
        final KernelLaunch resident = device.launchPersistent(ctx -> 0);
        mesh.close();
        mesh.close();
        assertTrue(mesh.isClosed());
        assertTrue(resident.isDone(), "close stops persistent kernels");
        assertMessage(assertThrows(IllegalStateException.class, () -> device.launch(1, (c, b) -> { })), "closed");
        assertMessage(assertThrows(IllegalStateException.class, () -> mesh.allocateInts(1)), "closed");
    }

    @Test
    void closeWaitsForQueuedLaunches() {
        final Mesh mesh = Mesh.builder().devices(1).threadsPerDevice(1).memoryPerDevice(1 << 16).build();
        final KernelLaunch[] launches = new KernelLaunch[20];
        final int[] ran = new int[1];
        for (int i = 0; i < launches.length; i++) {
            launches[i] = mesh.device(0).launch(1, (c, b) -> ran[0]++);
        }
        mesh.close();
        for (final KernelLaunch l : launches) {
            assertTrue(l.isDone());
            assertFalse(l.isFailed());
        }
        assertEquals(20, ran[0]);
    }

    @Test
    void mappedFileBackingWorksAndDeletesItsFiles(@TempDir final Path dir) {
        try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 16)
            .backing(MemoryBacking.mappedFiles(dir)).build()) {
            assertTrue(Files.exists(dir.resolve("overlap-dev1.mem")));
            final SymmetricArray<IntArray> a = mesh.allocateInts(16);
            a.on(0).set(3, 7);
            mesh.copy(a.on(0).address(0), a.on(1).address(0), 64);
            assertEquals(7, a.on(1).get(3));
        }
        assertFalse(Files.exists(dir.resolve("overlap-dev0.mem")));
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> MemoryBacking.mappedFiles(dir.resolve("missing"))), "not a directory");
    }

    static void assertMessage(final Throwable t, final String part) {
        assertTrue(String.valueOf(t.getMessage()).contains(part),
            () -> "message '" + t.getMessage() + "' should contain '" + part + "'");
    }
}
