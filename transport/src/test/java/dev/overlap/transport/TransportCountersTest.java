package dev.overlap.transport;

import dev.overlap.core.Mesh;
import dev.overlap.core.counters.CounterTypes;
import dev.overlap.core.counters.CountersFileReader;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport's counters as Agrona counters: labels, type ids and keys in the store they were given, freed by the
 * close, final values answered after it (not the freed slots' next owners'); the progress thread's factory; a
 * progress agent driven by the user's {@link AgentInvoker}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransportCountersTest {
    private static final int Q = 0;

    @TempDir
    Path dir;

    private static CountersManager manager(final int counters) {
        return new CountersManager(new UnsafeBuffer(ByteBuffer.allocateDirect(counters * CountersReader.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(counters * CountersReader.COUNTER_LENGTH)));
    }

    /** @return "typeId device index label=value" for every allocated counter */
    private static List<String> allocated(final CountersReader reader) {
        final List<String> seen = new ArrayList<>();
        reader.forEach((id, typeId, key, label) -> seen.add(typeId + " " + key.getInt(CounterTypes.KEY_DEVICE_OFFSET)
            + " " + key.getInt(CounterTypes.KEY_INDEX_OFFSET) + " " + label + "=" + reader.getCounterValue(id)));
        return seen;
    }

    private static void sendThree(final Transport t, final Endpoint ep) {
        t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> { });
        final IntAggregator agg = ep.intAggregator(1, Q, AggregatorConfig.eager());
        for (int i = 0; i < 3; i++) {
            agg.offerBlocking(i);
        }
        ep.poll();
        t.inbox(1).drain();
    }

    @Test
    void everyCounterIsAnAgronaCounterWithLabelTypeIdAndKeyAndTheCloseFreesThem() {
        final CountersManager mine = manager(64);
        final Transport t = Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(4).counters(mine).build();
        final Endpoint ep = t.newEndpoint(0);
        sendThree(t, ep);
        final List<String> seen = allocated(mine);
        assertEquals(2 * TransportCounter.RECEIVER_COUNTERS + TransportCounter.SENDER_COUNTERS, seen.size(), "only "
            + "created endpoints have counters: " + seen);
        assertTrue(seen.contains(TransportCounter.MESSAGES_SENT.typeId() + " 0 " + ep.id() + " transport dev0 endpoint "
            + ep.id() + ": messages sent=3"), seen.toString());
        assertTrue(seen.contains(TransportCounter.ITEMS_DELIVERED.typeId() + " 1 -1 transport dev1 inbox: items "
            + "delivered=3"), seen.toString());
        for (final TransportCounter c : TransportCounter.values()) {
            assertTrue(CounterTypes.isOverlap(c.typeId()));
            assertEquals(CounterTypes.TRANSPORT + c.ordinal(), c.typeId());
        }
        t.close();
        assertEquals(List.of(), allocated(mine), "the close frees every counter");
    }

    @Test
    void countersReadAfterCloseAnswerFinalValuesNotTheFreedSlots() {
        final CountersManager mine = manager(64);
        final Transport t = Transport.builder().devices(2).ringCapacity(4096).maxEndpoints(4).counters(mine).build();
        final Endpoint ep = t.newEndpoint(0);
        sendThree(t, ep);
        t.close();
        final List<AtomicCounter> nextOwners = new ArrayList<>();
        for (int i = 0; i < 2 * TransportCounter.RECEIVER_COUNTERS + TransportCounter.SENDER_COUNTERS; i++) {
            final AtomicCounter c = mine.newCounter("next owner " + i);
            c.set(999);
            nextOwners.add(c);
        }
        assertEquals(3, ep.counter(TransportCounter.MESSAGES_SENT));
        assertEquals(3, ep.counter(TransportCounter.ITEMS_ENQUEUED));
        assertEquals(3, t.counter(0, TransportCounter.ITEMS_FLUSHED));
        assertEquals(3, t.counter(1, TransportCounter.ITEMS_DELIVERED));
        assertEquals(0, t.counter(0, TransportCounter.ITEMS_DELIVERED));
        assertTrue(t.countersReport().contains("messages sent=3"), t.countersReport());
        final IllegalStateException closed = assertThrows(IllegalStateException.class,
            () -> t.inbox(1).counter(TransportCounter.MESSAGES_DELIVERED));
        assertTrue(closed.getMessage().startsWith(t.toString()), closed.getMessage());
        assertEquals(999, nextOwners.get(0).get());
    }

    @Test
    void aMeshTransportPublishesToTheMeshsCountersFile() throws Exception {
        try (Mesh mesh = Mesh.builder().name("cf").devices(2).threadsPerDevice(1).memoryPerDevice(1 << 20)
            .countersDirectory(dir).build()) {
            final Path file = mesh.counters().file();
            try (Transport t = Transport.builder().mesh(mesh).ringCapacity(4096).build()) {
                final Endpoint ep = t.newEndpoint(0);
                sendThree(t, ep);
                final CountersFileReader reader = CountersFileReader.open(file);
                final Map<String, Long> byLabel = new TreeMap<>();
                reader.counters().forEach((value, id, label) -> byLabel.put(label, value));
                assertEquals(3L, byLabel.get("cf transport dev0 endpoint " + ep.id() + ": messages sent"), byLabel
                    .toString());
                assertEquals(3L, byLabel.get("cf transport dev1 inbox: items delivered"));
                assertTrue(byLabel.containsKey("cf transport dev1 endpoint 1: messages sent"), "the workers' endpoints");
            }
            final List<String> left = allocated(CountersFileReader.open(file).counters());
            assertEquals(List.of(), left, "the transport's close freed its counters in the file");
        }
        assertFalse(Files.exists(dir.resolve("overlap-" + ProcessHandle.current().pid() + ".counters")),
            "the mesh's close deleted the file");
    }

    @Test
    void theProgressThreadComesFromTheFactoryAndTheCloseJoinsIt() {
        final List<Thread> made = new ArrayList<>();
        final Transport t = Transport.builder().devices(2).ringCapacity(4096).progressThread(true).helpAfter(0,
            java.util.concurrent.TimeUnit.NANOSECONDS).progressThreadFactory(r -> {
                final Thread th = new Thread(r, "my-progress");
                made.add(th);
                return th;
            }).build();
        final AtomicInteger got = new AtomicInteger();
        t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> got.addAndGet(count));
        final Endpoint ep = t.newEndpoint(0);
        ep.intAggregator(1, Q, AggregatorConfig.eager()).offerBlocking(5);
        while (t.counter(1, TransportCounter.HELPER_DRAINS) == 0) {
            Thread.onSpinWait(); // the progress thread applies it: nobody else drains dev1
        }
        assertEquals(1, got.get());
        assertEquals(1, made.size());
        assertTrue(made.get(0).isAlive());
        t.close();
        assertFalse(made.get(0).isAlive(), "joined by the close");
        assertThrows(IllegalStateException.class, () -> Transport.builder().devices(1).progressThread(true)
            .progressThreadFactory(r -> null).build());
    }

    @Test
    void aProgressAgentUnderTheUsersInvokerAppliesMessagesAndEndsWithTheClose() {
        final Transport t = Transport.builder().devices(2).ringCapacity(4096).helpAfter(0,
            java.util.concurrent.TimeUnit.NANOSECONDS).build();
        final AtomicInteger got = new AtomicInteger();
        t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> got.addAndGet(count));
        final Agent agent = t.newProgressAgent();
        final List<Throwable> errors = new ArrayList<>();
        final AgentInvoker invoker = new AgentInvoker(errors::add, null, agent);
        invoker.start();
        final Endpoint ep = t.newEndpoint(0);
        ep.intAggregator(1, Q, AggregatorConfig.eager()).offerBlocking(7);
        assertEquals(1, invoker.invoke(), "the user's thread applied the message");
        assertEquals(1, got.get());
        t.close();
        invoker.invoke(); // the agent finds the transport closed and ends its invoker
        assertFalse(invoker.isRunning());
        assertTrue(invoker.isClosed());
        assertTrue(errors.stream().allMatch(e -> e instanceof org.agrona.concurrent.AgentTerminationException),
            errors.toString());
    }
}
