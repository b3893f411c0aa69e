package dev.overlap.replication;

import dev.overlap.core.Mesh;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentTerminationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transfer agents as Agrona agents: on the user's threads ({@code threadFactory}), or with no thread at all, driven by
 * the user's {@link AgentInvoker}, and ended by the region's close either way.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransferAgentsTest {
    private static Mesh mesh;

    @BeforeAll
    static void setUp() {
        mesh = Mesh.builder().name("ta").devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20).build();
    }

    @AfterAll
    static void tearDown() {
        mesh.close();
    }

    private static void produce(final ReplicatedRegion region, final long value) {
        region.launch(0, (ctx, block) -> {
            for (int i = block * 1024; i < (block + 1) * 1024; i++) {
                region.putLong(0, i, value);
            }
        });
    }

    @ParameterizedTest
    @EnumSource(value = TransferMode.class, names = {"POLLING", "TRIGGERED"})
    void transferThreadsComeFromTheFactoryAndTheCloseJoinsThem(final TransferMode mode) {
        final List<Thread> made = new ArrayList<>();
        final ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(4096).mode(mode).chunkBytes(4096)
            .gridSize(4).producers(0).transferThreads(2).threadFactory(r -> {
                final Thread t = new Thread(r, "mine-" + made.size());
                t.setDaemon(true);
                made.add(t);
                return t;
            }).build();
        try {
            assertEquals(2, made.size());
            assertEquals(2, region.transferAgents().size());
            assertEquals("ta-xfer0", region.transferAgents().get(0).roleName());
            produce(region, 7);
            region.awaitTransfers();
            assertEquals(7, region.getLong(1, 4095));
        } finally {
            region.close();
        }
        for (final Thread t : made) {
            assertFalse(t.isAlive(), t.getName());
        }
        assertThrows(IllegalStateException.class, () -> ReplicatedRegion.builder(mesh).elements(4096).mode(mode)
            .producers(0).transferThreads(1).threadFactory(r -> null).build());
    }

    @ParameterizedTest
    @EnumSource(value = TransferMode.class, names = {"POLLING", "TRIGGERED"})
    void agentsWithoutThreadsTransferUnderTheUsersInvokerAndEndWithTheClose(final TransferMode mode) {
        final ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(4096).mode(mode).chunkBytes(4096)
            .gridSize(4).producers(0).transferThreads(1).transferAgentsWithoutThreads().build();
        final List<Agent> agents = region.transferAgents();
        assertEquals(1, agents.size());
        final List<Throwable> errors = new ArrayList<>();
        final AgentInvoker invoker = new AgentInvoker(errors::add, null, agents.get(0));
        invoker.start();
        for (long iteration = 1; iteration <= 3; iteration++) {
            final long before = region.copiedChunks();
            produce(region, iteration);
            do {
                invoker.invoke(); // the user's thread does the copies
            } while (!region.awaitTransfers(1, TimeUnit.MILLISECONDS));
            assertEquals(iteration, region.getLong(1, 0));
            assertEquals(iteration, region.getLong(1, 4095));
            assertTrue(region.copiedChunks() > before);
        }
        region.close();
        invoker.invoke(); // the agent finds the transfers closed and ends its invoker without copying
        assertTrue(invoker.isClosed());
        assertTrue(errors.stream().allMatch(e -> e instanceof AgentTerminationException), errors.toString());
    }

    @Test
    void otherModesHaveNoAgents() {
        try (ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(4096).mode(TransferMode.BULK)
            .gridSize(4).producers(0).build()) {
            assertTrue(region.transferAgents().isEmpty());
        }
    }
}
