package dev.overlap.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Mesh.Builder#threadFactory}: the user's threads run the workers, with the user's names and flags. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorkerThreadFactoryTest {
    @Test
    void workersRunOnTheFactorysThreadsWhichTheCloseJoins() {
        final List<Thread> made = new ArrayList<>();
        final List<String> defaults = new ArrayList<>();
        final ThreadFactory factory = r -> {
            defaults.add(r.toString());
            final Thread t = new Thread(() -> {
                Thread.currentThread().setPriority(Thread.NORM_PRIORITY); // where an affinity hook would pin
                r.run();
            }, "mine-" + made.size());
            t.setDaemon(false);
            made.add(t);
            return t;
        };
        final Mesh mesh = Mesh.builder().name("tf").devices(2).threadsPerDevice(2).memoryPerDevice(4096)
            .threadFactory(factory).build();
        try {
            assertEquals(List.of("tf-dev0-w0", "tf-dev0-w1", "tf-dev1-w0", "tf-dev1-w1"), defaults);
            final String[] names = new String[2];
            mesh.device(1).launch(2, (ctx, block) -> names[block] = Thread.currentThread().getName()).join();
            assertTrue(names[0].startsWith("mine-") && names[1].startsWith("mine-"), names[0] + " " + names[1]);
            // a worker of the user's thread is still known as one: it may not wait for its own device
            final RuntimeException[] refused = new RuntimeException[1];
            mesh.device(0).launch(1, (ctx, block) -> {
                try {
                    ctx.device().synchronize();
                } catch (final IllegalStateException e) {
                    refused[0] = e;
                }
            }).join();
            assertTrue(refused[0] != null && refused[0].getMessage().contains("own device"), String.valueOf(refused[0]));
        } finally {
            mesh.close();
        }
        for (final Thread t : made) {
            assertFalse(t.isAlive(), t.getName());
            assertFalse(t.isDaemon());
        }
    }

    @Test
    void aFactoryThatReturnsNullOrAStartedThreadIsRefused() {
        final IllegalStateException nul = assertThrows(IllegalStateException.class, () -> Mesh.builder().devices(1)
            .threadsPerDevice(1).memoryPerDevice(4096).threadFactory(r -> null).build());
        assertTrue(nul.getMessage().contains("returned null"), nul.getMessage());
        final Thread started = new Thread(() -> { });
        started.start();
        final IllegalStateException st = assertThrows(IllegalStateException.class, () -> Mesh.builder().devices(1)
            .threadsPerDevice(1).memoryPerDevice(4096).threadFactory(r -> started).build());
        assertTrue(st.getMessage().contains("was started"), st.getMessage());
    }

    @Test
    void defaultThreadsKeepTheirNamesAndAreDaemons() {
        try (Mesh mesh = Mesh.builder().name("dflt").devices(1).threadsPerDevice(1).memoryPerDevice(4096).build()) {
            final Thread[] t = new Thread[1];
            mesh.device(0).launch(1, (ctx, block) -> t[0] = Thread.currentThread()).join();
            assertEquals("dflt-dev0-w0", t[0].getName());
            assertTrue(t[0].isDaemon());
        }
    }
}
