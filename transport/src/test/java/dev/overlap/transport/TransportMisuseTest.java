package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.overlap.testing.TestThreads.awaitParked;
import static dev.overlap.testing.TestThreads.awaitRelease;
import static dev.overlap.testing.TestThreads.named;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Misuse of the transport (issue 15's cases): wrong close order, waits nobody serves,
 * interrupts and timeouts. Each gets a clear exception or the right behaviour,
 * never a crash or a hang ({@code @Timeout} guards against hangs only).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransportMisuseTest {
    private static final int Q = 0;

    private static Mesh mesh(final String name) {
        return Mesh.builder().name(name).devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20).build();
    }

    /**
     * The one exception to "use after close throws" ({@code OfferResult}): the code-returning, never-waiting offers
     * of an aggregator whose transport closed under a sender answer {@code CLOSED}; its blocking offers, flushes and
     * the endpoint's calls still throw, naming what is closed.
     */
    @Test
    void afterTheTransportClosedTheNeverWaitingOffersAnswerClosedAndEverythingElseThrows() {
        final Transport t = Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(4).build();
        t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> { });
        t.registerHandler(1, Q + 1, ItemType.LONG, (queue, sender, items, offset, count) -> { });
        final Endpoint ep = t.newEndpoint(0);
        final IntAggregator ints = ep.intAggregator(1, Q, AggregatorConfig.batched(24, 1_000));
        final LongAggregator longs = ep.longAggregator(1, Q + 1, AggregatorConfig.eager());
        assertEquals(1, ints.tryOffer(1));
        t.close();
        assertEquals(dev.overlap.core.OfferResult.CLOSED, ints.tryOffer(2));
        assertEquals(dev.overlap.core.OfferResult.CLOSED, ints.tryClaim(1, new IntBatchClaim()));
        assertEquals(dev.overlap.core.OfferResult.CLOSED, longs.tryOffer(3L));
        assertEquals(dev.overlap.core.OfferResult.CLOSED, longs.tryClaim(1, new LongBatchClaim()));
        assertTrue(assertThrows(IllegalStateException.class, () -> ints.offerBlocking(4)).getMessage()
            .contains("is closed"));
        assertThrows(IllegalStateException.class, () -> ints.offer(4, 1, TimeUnit.SECONDS));
        assertThrows(IllegalStateException.class, ints::flush);
        assertThrows(IllegalStateException.class, () -> longs.offerBlocking(5L));
        assertTrue(assertThrows(IllegalStateException.class, ep::poll).getMessage().contains("closed"));
        assertThrows(IllegalArgumentException.class, () -> ints.tryClaim(0, new IntBatchClaim()),
            "wrong arguments still throw");
        assertEquals(1, ep.counter(TransportCounter.ITEMS_ENQUEUED), "the taken item was flushed by the close");
    }

    @Test
    void closingTheMeshFirstClosesAnOpenTransportAndStopsItsProgressThread() throws Exception {
        final Mesh mesh = mesh("order");
        final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 16).progressThread(true).build();
        final AtomicInteger received = new AtomicInteger();
        t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> received.addAndGet(count));
        final Endpoint ep = t.newEndpoint(0);
        final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(256, 1_000_000));
        for (int i = 0; i < 1000; i++) {
            agg.offerBlocking(i);
        }
        final Thread progress = named("order-progress");
        mesh.close(); // the transport is still open, its progress thread running: the mesh closes it first
        assertTrue(t.isClosed());
        progress.join();
        assertEquals(1000, received.get(), "the close delivered every pending item");
        assertEquals(1000, t.counter(1, TransportCounter.ITEMS_DELIVERED), "counters stay readable");
        assertThrows(IllegalStateException.class, () -> agg.offerBlocking(1));
        assertThrows(IllegalStateException.class, ep::poll);
        assertThrows(IllegalStateException.class, t::drainAll);
        assertThrows(IllegalStateException.class, () -> t.inbox(1).drain());
        assertThrows(IllegalStateException.class, () -> t.newEndpoint(0));
        assertThrows(IllegalStateException.class, () -> ep.getLong(GlobalAddress.of(1, 0)));
        t.close();
    }

    @Test
    void aGetToADeviceThatNobodyDrainsCompletes() {
        try (Mesh mesh = mesh("undrained");
             Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 16).directPolicy(DirectPolicy.NEVER)
                 .rendezvousThreshold(1 << 12).build();
             SymmetricArray<LongArray> data = mesh.allocateLongs(16)) {
            data.on(1).set(3, 4242);
            final Endpoint ep = t.newEndpoint(0);
            // dev1's worker never polls and there is no progress thread: the waiting sender applies the get itself
            assertEquals(4242, ep.getLong(data.on(1).address(3)));
            ep.putLong(data.on(1).address(4), 7);
            ep.quiet();
            assertEquals(7, data.on(1).get(4));
        }
    }

    @Test
    void aGetAnswersAnInterruptAndItsTimedFormGivesUp() throws Exception {
        try (Mesh mesh = mesh("stuck");
             Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 16).directPolicy(DirectPolicy.NEVER)
                 .rendezvousThreshold(1 << 12).build();
             SymmetricArray<LongArray> data = mesh.allocateLongs(16)) {
            // a handler on dev1 blocks while holding dev1's inbox: nobody can apply a get to dev1 until it returns
            final CountDownLatch entered = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> {
                entered.countDown();
                awaitRelease(release);
            });
            final Endpoint blocker = t.newEndpoint(0);
            final IntAggregator agg = blocker.intAggregator(1, Q, AggregatorConfig.eager());
            agg.offerBlocking(1);
            final Thread drainer = new Thread(() -> t.inbox(1).drain(), "drainer");
            drainer.start();
            entered.await();

            final Endpoint ep = t.newEndpoint(0);
            assertThrows(TimeoutException.class, () -> ep.getLong(data.on(1).address(0), 5, TimeUnit.MILLISECONDS));
            assertFalse(ep.quiet(1, TimeUnit.MILLISECONDS), "the timed-out get is still outstanding");

            final AtomicReference<Throwable> thrown = new AtomicReference<>();
            final AtomicReference<Boolean> statusKept = new AtomicReference<>();
            final Endpoint ep2 = t.newEndpoint(0);
            final Thread getter = new Thread(() -> {
                try {
                    ep2.getLong(data.on(1).address(0));
                } catch (final Throwable e) {
                    thrown.set(e);
                    statusKept.set(Thread.currentThread().isInterrupted());
                }
            }, "getter");
            getter.start();
            awaitParked(getter);
            getter.interrupt();
            getter.join();
            assertInstanceOf(InterruptedWaitException.class, thrown.get());
            assertTrue(statusKept.get());
            release.countDown();
            drainer.join();
            assertTrue(ep.quiet(30, TimeUnit.SECONDS), "the abandoned get completed once dev1 was free again");
        }
    }

    @Test
    void timedSendsGiveUpWhileTheDestinationRingStaysFullAndLoseNothing() throws Exception {
        try (Mesh mesh = mesh("full");
             Transport t = Transport.builder().mesh(mesh).ringCapacity(1024).directPolicy(DirectPolicy.NEVER)
                 .rendezvousThreshold(1 << 12).build();
             SymmetricArray<LongArray> data = mesh.allocateLongs(16)) {
            final CountDownLatch entered = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final AtomicInteger received = new AtomicInteger();
            t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> {
                entered.countDown();
                awaitRelease(release);
                received.addAndGet(count);
            });
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.eager());
            agg.offerBlocking(0);
            final Thread drainer = new Thread(() -> t.inbox(1).drain(), "drainer");
            drainer.start();
            entered.await(); // dev1's inbox is held by a handler that waits: nothing more is applied
            int sent = 1;
            while (agg.offer(sent, 1, TimeUnit.MILLISECONDS)) {
                sent++;
            }
            final long address = data.on(1).address(2);
            assertFalse(ep.putLong(address, 9, 1, TimeUnit.MILLISECONDS), "the ring is full: nothing was sent");
            assertFalse(ep.atomic(dev.overlap.transport.RemoteAtomic.LONG_ADD, address, 1, 1,
                TimeUnit.MILLISECONDS));
            release.countDown();
            drainer.join();
            ep.quiet();
            assertEquals(sent, received.get(), "every item taken by an offer was delivered once; none that timed out");
            assertEquals(0, data.on(1).get(2), "the timed-out put and add were never applied");
        }
    }

    @Test
    void aProgressAgentOfAClosedTransportEndsItsRunner() throws Exception {
        final Mesh mesh = mesh("agent");
        final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 16).build();
        final AgentRunner runner = new AgentRunner(new BusySpinIdleStrategy(), e -> { }, null, t.newProgressAgent());
        final Thread thread = AgentRunner.startOnThread(runner);
        t.close();
        thread.join();
        mesh.close();
        runner.close();
        assertThrows(IllegalStateException.class, t::newProgressAgent);
    }

    /**
     * A counter read racing the close, in a loop of rounds (the contract in {@link Transport}'s class comment): the
     * transport's counters answer the value before or after the close (equal here: nothing moves once the items are
     * delivered) and never fail; an inbox's counter answers it or, once the transport is closed, the
     * {@link IllegalStateException} that names it; the report keeps its figures. Over a mesh the close frees the
     * inbox region and zeroes it, so a read of freed memory shows as a 0. The reader reads throughout the close and
     * once more after it returned.
     */
    @Test
    void aCounterReadRacingCloseAnswersTheValueOrTheDocumentedException() throws Exception {
        final int rounds = Integer.getInteger("overlap.test.closeRaceRounds", 300);
        final int items = 20;
        try (Mesh mesh = mesh("counter-race")) {
            for (int round = 0; round < rounds; round++) {
                final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 12).build();
                t.registerHandler(1, Q, ItemType.INT, (queue, sender, buffer, offset, count) -> { });
                final Endpoint ep = t.newEndpoint(0);
                final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.batched(64, 1_000_000));
                for (int i = 0; i < items; i++) {
                    agg.offerBlocking(i);
                }
                ep.quiet(); // applied (the waiting endpoint helps dev1's undrained inbox), counters published
                final long messages = t.counter(0, TransportCounter.MESSAGES_SENT);
                final String figures = "items delivered=" + items + ",";
                final AtomicBoolean closeReturned = new AtomicBoolean();
                final AtomicReference<String> wrong = new AtomicReference<>();
                final CountDownLatch reading = new CountDownLatch(1);
                final Thread reader = new Thread(() -> {
                    boolean last;
                    do {
                        last = closeReturned.get();
                        try {
                            check(wrong, t.counter(1, TransportCounter.ITEMS_DELIVERED) == items, "items delivered");
                            check(wrong, t.counter(0, TransportCounter.MESSAGES_SENT) == messages, "messages sent");
                            check(wrong, t.countersReport().contains(figures), "the report");
                        } catch (final RuntimeException e) {
                            check(wrong, false, "a transport counter read threw " + e);
                        }
                        try {
                            check(wrong, t.inbox(1).counter(TransportCounter.ITEMS_DELIVERED) == items, "inbox");
                        } catch (final IllegalStateException e) {
                            check(wrong, t.isClosed() && e.getMessage().startsWith(t.toString()),
                                "an inbox counter read threw " + e);
                        }
                        reading.countDown();
                    } while (!last);
                }, "counter-reader");
                reader.start();
                reading.await();
                t.close();
                closeReturned.set(true);
                reader.join();
                assertEquals(null, wrong.get(), "round " + round);
                assertEquals(items, t.counter(1, TransportCounter.ITEMS_DELIVERED), "the final value stays readable");
            }
        }
    }

    private static void check(final AtomicReference<String> wrong, final boolean ok, final String what) {
        if (!ok) {
            wrong.compareAndSet(null, what);
        }
    }

    /**
     * A drain in progress on another thread (its handler still running) when the close reaches the freeing of the
     * inbox memory: here the close gets there at once because a handler it runs itself throws. The close must wait
     * for the other drain before the memory goes (it would otherwise read freed memory when its handler returns) and
     * apply what that drain left; then it reports the handler's failure.
     */
    @Test
    void theCloseWaitsForADrainInProgressOnAnotherThreadBeforeTheInboxMemoryGoes() throws Exception {
        try (Mesh mesh = mesh("close-waits-for-drain")) {
            final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 14).maxEndpoints(4).build();
            final CountDownLatch inHandler = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final AtomicInteger applied = new AtomicInteger();
            t.registerHandler(0, Q, ItemType.INT, (queue, sender, items, offset, count) -> {
                throw new IllegalStateException("handler of dev0 fails");
            });
            t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> {
                if (applied.getAndAdd(count) == 0) {
                    inHandler.countDown();
                    awaitRelease(release);
                }
            });
            final Endpoint ep = t.newEndpoint(0);
            final IntAggregator to0 = ep.intAggregator(0, Q, AggregatorConfig.eager());
            final IntAggregator to1 = ep.intAggregator(1, Q, AggregatorConfig.eager());
            to1.offerBlocking(1);
            to1.offerBlocking(2); // eager: two messages; the drainer below applies the first only
            to0.offerBlocking(3);
            final AtomicReference<Throwable> drainFailure = new AtomicReference<>();
            final Thread drainer = new Thread(() -> {
                try {
                    t.inbox(1).drain(1);
                } catch (final Throwable e) {
                    drainFailure.set(e);
                }
            }, "drainer");
            drainer.start();
            inHandler.await();
            final AtomicReference<Throwable> closeFailure = new AtomicReference<>();
            final Thread closer = new Thread(() -> {
                try {
                    t.close();
                } catch (final Throwable e) {
                    closeFailure.set(e);
                }
            }, "closer");
            closer.start();
            awaitParked(closer); // waiting for the drainer, not finished with the ring freed under it
            assertTrue(closer.isAlive() && t.inbox(1).isDrainingOnAnotherThread());
            release.countDown();
            drainer.join();
            closer.join();
            assertEquals(null, drainFailure.get());
            assertEquals(2, applied.get(), "the drainer applied the first message, the close the one it left");
            assertTrue(closeFailure.get() instanceof IllegalStateException
                && closeFailure.get().getMessage().contains("handler of dev0 fails"), String.valueOf(closeFailure.get()));
            assertTrue(t.isClosed());
        }
    }

    @Test
    void aCloseFromInsideAHandlerIsRefusedNamingTheInbox() {
        try (Mesh mesh = mesh("close-from-handler")) {
            final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 14).maxEndpoints(4).build();
            final AtomicReference<Throwable> refused = new AtomicReference<>();
            t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> {
                try {
                    t.close();
                } catch (final IllegalStateException e) {
                    refused.set(e);
                }
            });
            t.newEndpoint(0).intAggregator(1, Q, AggregatorConfig.eager()).offerBlocking(7);
            t.inbox(1).drain();
            assertTrue(refused.get() != null && refused.get().getMessage().contains("from a handler of dev1's inbox"),
                String.valueOf(refused.get()));
            assertFalse(t.isClosed());
            t.close();
            assertTrue(t.isClosed());
        }
    }
}
