package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class MeshTransportTest {
    private static final int Q = 0;
    private static final long BOUND_SECONDS = 120;

    /** Per receiving device: checks per-sender-device order and counts; runs under the inbox drain lock. */
    static final class OrderChecker implements BatchHandler {
        final int[] next;
        volatile long received;
        long violations;

        OrderChecker(final int devices) {
            next = new int[devices];
        }

        @Override
        public void onBatch(final int queueId, final int sender, final DirectBuffer items, final int offset,
            final int count) {
            for (int i = 0; i < count; i++) {
                final int item = items.getInt(offset + 4 * i);
                final int from = item >>> 24;
                final int seq = item & 0xFF_FFFF;
                if (from >= next.length || seq != next[from]) {
                    violations++;
                } else {
                    next[from]++;
                }
            }
            received += count; // single writer (the lock holder), read by others for progress
        }
    }

    /** Joins every launch; the bound per launch only turns a hang (deadlock) into a failure with the counters. */
    private static void joinOrFail(final List<KernelLaunch> launches, final Transport t, final String what) {
        for (final KernelLaunch l : launches) {
            if (!l.join(BOUND_SECONDS, TimeUnit.SECONDS)) {
                fail(what + " still running after " + BOUND_SECONDS + " s (deadlock?). Counters:\n"
                    + t.countersReport());
            }
        }
    }

    @Test
    void fourDevicesAllToAllWithTinyRingsAlwaysFinish() {
        final int devices = 4;
        final int perPair = 20_000;
        final int atomicEvery = 16;
        try (Mesh mesh = Mesh.builder().devices(devices).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
             Transport t = Transport.builder().mesh(mesh).ringCapacity(1024).directPolicy(DirectPolicy.NEVER)
                 .build()) {
            final OrderChecker[] checkers = new OrderChecker[devices];
            for (int d = 0; d < devices; d++) {
                checkers[d] = new OrderChecker(devices);
                t.registerHandler(d, Q, ItemType.INT, checkers[d]);
            }
            final SymmetricArray<IntArray> hits = mesh.allocateInts(16);
            final List<KernelLaunch> launches = new ArrayList<>();
            for (int d = 0; d < devices; d++) {
                launches.add(mesh.device(d).launch(1, (ctx, block) -> {
                    final int me = ctx.deviceId();
                    final Endpoint ep = t.endpoint(ctx);
                    final IntAggregator[] to = new IntAggregator[devices];
                    for (int dest = 0; dest < devices; dest++) {
                        if (dest != me) {
                            to[dest] = ep.intAggregator(dest, Q, AggregatorConfig.batched(64, 8));
                        }
                    }
                    for (int seq = 0; seq < perPair; seq++) {
                        for (int dest = 0; dest < devices; dest++) {
                            if (dest != me) {
                                to[dest].offerBlocking(me << 24 | seq);
                                if (seq % atomicEvery == 0) {
                                    ep.atomic(RemoteAtomic.INT_ADD, hits.on(dest).address(0), 1);
                                }
                            }
                        }
                        ep.poll();
                    }
                    ep.flush();
                    final long expectedItems = (long)(devices - 1) * perPair;
                    final int expectedHits = (devices - 1) * ((perPair + atomicEvery - 1) / atomicEvery);
                    while (checkers[me].received < expectedItems || hits.on(me).getVolatile(0) < expectedHits) {
                        if (ep.poll() == 0) {
                            Thread.yield();
                        }
                    }
                    ep.quiet();
                }));
            }
            joinOrFail(launches, t, "4-device all-to-all exchange over 1 KiB rings");
            long enqueued = 0;
            long delivered = 0;
            long retries = 0;
            for (int d = 0; d < devices; d++) {
                assertEquals(0, checkers[d].violations, "order/duplication violations on dev" + d);
                assertEquals((long)(devices - 1) * perPair, checkers[d].received, "items received by dev" + d);
                for (int from = 0; from < devices; from++) {
                    assertEquals(from == d ? 0 : perPair, checkers[d].next[from], "items dev" + from + " -> dev" + d);
                }
                enqueued += t.counter(d, TransportCounter.ITEMS_ENQUEUED);
                delivered += t.counter(d, TransportCounter.ITEMS_DELIVERED);
                retries += t.counter(d, TransportCounter.BACK_PRESSURE_RETRIES);
            }
            assertEquals(enqueued, delivered);
            assertEquals((long)devices * (devices - 1) * perPair, delivered);
            assertTrue(retries > 0, "the tiny rings should have pushed back at least once");
        }
    }

    @Test
    void closeFlushesEverything() {
        final int devices = 2;
        try (Mesh mesh = Mesh.builder().devices(devices).threadsPerDevice(2).memoryPerDevice(1 << 20).build()) {
            final OrderChecker[] checkers = new OrderChecker[devices];
            final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 16).build();
            for (int d = 0; d < devices; d++) {
                checkers[d] = new OrderChecker(devices);
                t.registerHandler(d, Q, ItemType.INT, checkers[d]);
            }
            final List<KernelLaunch> launches = new ArrayList<>();
            for (int d = 0; d < devices; d++) {
                launches.add(mesh.device(d).launch(2, (ctx, block) -> {
                    final Endpoint ep = t.endpoint(ctx);
                    final int other = 1 - ctx.deviceId();
                    // huge batch, no wait flush: nothing leaves unless something flushes
                    final IntAggregator agg = ep.intAggregator(other, Q, AggregatorConfig.batched(8192,
                        Long.MAX_VALUE));
                    if (block == 0) {
                        for (int i = 0; i < 100; i++) {
                            agg.offerBlocking(ctx.deviceId() << 24 | i);
                        }
                        ep.poll(); // publishes the pending count; waitPolls is infinite, so nothing is sent
                    }
                }));
            }
            joinOrFail(launches, t, "senders");
            for (int d = 0; d < devices; d++) {
                assertEquals(0, checkers[d].received, "nothing was sent before close");
                assertEquals(100, t.counter(1 - d, TransportCounter.ITEMS_ENQUEUED));
            }
            t.close();
            for (int d = 0; d < devices; d++) {
                assertEquals(100, checkers[d].received, "close delivered dev" + d + "'s items");
                assertEquals(0, checkers[d].violations);
                assertEquals(1, t.counter(1 - d, TransportCounter.FLUSHES_CLOSE));
            }
        }
    }

    @Test
    void closingAnAggregatorOrEndpointFlushesIt() {
        try (Transport t = Transport.builder().devices(2).ringCapacity(4096).build()) {
            final Recorder r = new Recorder(ItemType.LONG);
            t.registerHandler(1, Q, ItemType.LONG, r);
            final Endpoint ep = t.newEndpoint(0);
            final LongAggregator a = ep.longAggregator(1, Q, AggregatorConfig.batched(256, 1_000));
            final LongAggregator b = ep.longAggregator(1, Q, AggregatorConfig.batched(256, 1_000));
            a.offerBlocking(1);
            b.offerBlocking(2);
            a.close();
            t.inbox(1).drain();
            assertEquals(List.of(1L), r.items);
            ep.close();
            t.inbox(1).drain();
            assertEquals(List.of(1L, 2L), r.items);
            assertEquals(2, ep.counter(TransportCounter.FLUSHES_CLOSE));
        }
    }

    @Test
    void progressThreadServesAGetWhileTheOwnerIsBusyInALongKernel() throws Exception {
        try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
             Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 14).directPolicy(DirectPolicy.NEVER)
                 .progressThread(true).helpAfter(20, TimeUnit.MICROSECONDS).build()) {
            final SymmetricArray<IntArray> data = mesh.allocateInts(16);
            data.on(1).set(2, 1234);
            final IntArray control = mesh.device(1).allocateInts(2); // [0] started, [1] release
            final KernelLaunch busy = mesh.device(1).launch(1, (ctx, block) -> {
                control.setVolatile(0, 1);
                while (control.getVolatile(1) == 0) {
                    Thread.onSpinWait(); // a long kernel: never drains its inbox
                }
            });
            while (control.getVolatile(0) == 0) {
                Thread.yield();
            }
            final AtomicReference<Object> result = new AtomicReference<>();
            final Thread requester = new Thread(() -> {
                try {
                    final Endpoint ep = t.newEndpoint(0);
                    final long value = ep.getLong(GlobalAddress.of(1, data.on(1).offset() + 8));
                    ep.atomic(RemoteAtomic.INT_ADD, data.on(1).address(0), 5);
                    ep.quiet();
                    result.set(value);
                } catch (final Throwable e) {
                    result.set(e);
                }
            });
            requester.start();
            requester.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
            final boolean kernelStillRunning = !busy.isDone();
            control.setVolatile(1, 1);
            busy.join();
            if (requester.isAlive()) {
                fail("a get against a device busy in a kernel did not complete within " + BOUND_SECONDS
                    + " s although a progress thread runs\n" + t.countersReport());
            }
            assertTrue(kernelStillRunning, "the kernel was still running when the get completed");
            assertEquals(1234L, result.get(), "the get's value (or its failure)");
            assertEquals(5, data.on(1).getVolatile(0));
            assertTrue(t.counter(1, TransportCounter.HELPER_DRAINS) > 0);
        }
    }

    @Test
    void aHandlerThatWouldBlockOnItsOwnInboxGetsAClearError() {
        final org.agrona.concurrent.UnsafeBuffer m0 =
            new org.agrona.concurrent.UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(64));
        try (Transport t = Transport.builder().devices(1).memories(m0).ringCapacity(4096)
            .directPolicy(DirectPolicy.NEVER).build()) {
            final Endpoint ep = t.newEndpoint(0);
            t.registerHandler(0, Q, ItemType.INT, (q, s, b, o, c) -> ep.getLong(GlobalAddress.of(0, 0)));
            ep.intAggregator(0, Q, AggregatorConfig.eager()).offerBlocking(1);
            final IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                ep::poll);
            assertTrue(e.getMessage().contains("handlers must not block"), e.getMessage());
            assertEquals(1, t.inbox(0).counter(TransportCounter.HANDLER_ERRORS));
        }
    }
}
