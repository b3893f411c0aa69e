package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.WorldAccess;
import dev.overlap.core.WorldConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static dev.overlap.testing.TestThreads.inParallel;
import static dev.overlap.testing.TestThreads.runInParallel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transport over a mesh across processes, the two ranks played by meshes of one JVM (each rank's objects are its
 * own, as in two processes: only the device memory is shared): batches, puts, atomics, gets and fetching atomics from
 * one rank reach the other's device through its inbox, replies come back inline through the shared reply areas, and
 * only the owner drains an inbox. The multi-process integration test runs the same with real processes.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransportWorldTest {
    private static final int Q = 0;

    @TempDir
    Path tmp;

    private Mesh[] meshes(final String job, final UnaryOperator<WorldConfig.Builder> tune) {
        return inParallel(2, r -> Mesh.builder().name("r" + r).devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20)
            .world(tune.apply(WorldConfig.sharedMemory(tmp.resolve(job), 2, r).joinTimeout(30, TimeUnit.SECONDS))
                .build()).build()).toArray(new Mesh[0]);
    }

    private static Transport transport(final Mesh mesh, final boolean progress) {
        return Transport.builder().mesh(mesh).ringCapacity(64 << 10).directPolicy(DirectPolicy.NEVER)
            .progressThread(progress).helpAfter(0, TimeUnit.MICROSECONDS).build();
    }

    @Test
    void batchesPutsAtomicsGetsAndFetchesCrossToTheOtherProcess() {
        final Mesh[] m = meshes("ops", c -> c);
        final List<List<Long>> received = List.of(Collections.synchronizedList(new ArrayList<>()),
            Collections.synchronizedList(new ArrayList<>()));
        final long[] answers = new long[4];
        runInParallel(2, r -> {
            try (Transport t = transport(m[r], true);
                 SymmetricArray<LongArray> data = m[r].allocateLongs(64)) {
                for (int d = 0; d < 2; d++) {
                    final int dev = d;
                    t.registerHandler(d, Q, ItemType.INT, (q, sender, items, offset, count) -> {
                        for (int i = 0; i < count; i++) {
                            received.get(dev).add((long)items.getInt(offset + 4 * i));
                        }
                    });
                }
                m[r].world().barrier(); // every rank's handlers are registered before anyone sends
                if (r == 0) {
                    final Endpoint ep = t.newEndpoint(0);
                    final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(256, 4));
                    for (int i = 0; i < 1000; i++) {
                        agg.offerBlocking(i);
                    }
                    agg.flush();
                    final long slot3 = data.on(1).address(3);
                    final long slot4 = data.on(1).address(4);
                    ep.putLong(slot3, 42);
                    for (int i = 0; i < 10; i++) {
                        ep.atomic(RemoteAtomic.LONG_ADD, slot4, 5);
                    }
                    answers[0] = ep.getLong(slot3);
                    answers[1] = ep.fetch(RemoteAtomic.LONG_ADD, slot4, 1);
                    final UnsafeBuffer bytes = new UnsafeBuffer(new byte[100]);
                    ep.get(GlobalAddress.of(1, GlobalAddress.offset(slot3)), bytes, 0, 16);
                    answers[2] = bytes.getLong(0);
                    answers[3] = bytes.getLong(8);
                    ep.quiet();
                }
                m[r].world().barrier(); // rank 0's operations are applied (its quiet) before rank 1 looks
                if (r == 1) {
                    assertEquals(42, data.on(1).getVolatile(3));
                    assertEquals(51, data.on(1).getVolatile(4));
                }
                m[r].world().barrier();
            }
        });
        assertEquals(42, answers[0], "a ring get answered by the other process, inline");
        assertEquals(50, answers[1], "a fetch answered by the other process");
        assertEquals(42, answers[2], "a byte get copied out of the reply slot");
        assertEquals(51, answers[3]);
        final List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 1000; i++) {
            expected.add(i);
        }
        assertEquals(expected, received.get(1), "every item once, in order, at the owner's handler");
        assertTrue(received.get(0).isEmpty());
        runInParallel(2, r -> m[r].close());
    }

    @Test
    void onlyTheOwnerDrainsAnInboxOrKeepsItsCounters() {
        final Mesh[] m = meshes("owner", c -> c);
        runInParallel(2, r -> {
            try (Transport t = transport(m[r], false)) {
                final int other = 1 - r;
                assertTrue(t.isLocal(r));
                assertFalse(t.isLocal(other));
                assertFalse(t.inbox(other).isOwned());
                assertMessage(assertThrows(IllegalStateException.class, () -> t.inbox(other).drain()),
                    "can only be drained by rank " + other);
                assertMessage(assertThrows(IllegalStateException.class, () -> t.newEndpoint(other)),
                    "belongs to rank " + other);
                assertMessage(assertThrows(IllegalStateException.class,
                    () -> t.counter(other, TransportCounter.MESSAGES_DELIVERED)), "kept by rank " + other);
                t.drainAll(); // its own inbox only
                assertFalse(t.countersReport().contains("dev" + other), "each process reports its own inboxes");
            }
        });
        runInParallel(2, r -> m[r].close());
    }

    @Test
    void ranksWithDifferentRingsAreRefused() {
        final Mesh[] m = meshes("rings", c -> c);
        final List<String> errors = inParallel(2, r -> {
            try {
                Transport.builder().mesh(m[r]).ringCapacity((64 << 10) << r).build().close();
                return "built";
            } catch (final IllegalStateException e) {
                return e.getMessage();
            }
        });
        for (final String e : errors) {
            assertTrue(e.contains("Transport ringCapacity differs across the ranks"), e);
        }
        runInParallel(2, r -> m[r].close());
    }

    @Test
    void aGetToARankThatStoppedEndsWithThePeerFailure() {
        final Mesh[] m = meshes("silent", c -> c.peerTimeout(300, TimeUnit.MILLISECONDS));
        final Transport[] t = inParallel(2, r -> transport(m[r], false)).toArray(new Transport[0]);
        try (SymmetricArray<LongArray> data0 = allocateBoth(m)) {
            stopHeartbeat(m[1]); // rank 1 is "hung": no heartbeat, nobody drains its inbox
            final Endpoint ep = t[0].newEndpoint(0);
            final PeerFailedException e = assertThrows(PeerFailedException.class,
                () -> ep.getLong(data0.on(1).address(0)));
            assertEquals(1, e.rank());
        } finally {
            runInParallel(2, r -> t[r].close()); // the world is broken: each rank still releases what it holds
            runInParallel(2, r -> m[r].close());
        }
    }

    private static SymmetricArray<LongArray> allocateBoth(final Mesh[] m) {
        return inParallel(2, r -> m[r].allocateLongs(8)).get(0);
    }

    private static void stopHeartbeat(final Mesh mesh) {
        WorldAccess.stopMonitor(mesh.world());
    }

    private static void assertMessage(final Throwable t, final String part) {
        assertTrue(t.getMessage() != null && t.getMessage().contains(part), "expected '" + part + "' in: " + t);
        assertInstanceOf(IllegalStateException.class, t);
    }
}
