package dev.overlap.core.counters;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.ConcurrentCountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The counters file and {@link OverlapCounters}: header, labels, type ids, keys, values, and lifecycle. */
class CountersFileTest {
    @TempDir
    Path dir;

    @Test
    void aFileHoldsTheHeaderAndTheCountersAnotherReaderSees() throws Exception {
        try (OverlapCounters counters = OverlapCounters.file(dir)) {
            final Path file = counters.file();
            assertEquals(CountersFile.fileOf(dir.toAbsolutePath(), ProcessHandle.current().pid()), file);
            final AtomicCounter sent = counters.allocate(CounterTypes.TRANSPORT, "m transport dev1 ep2: messages sent",
                1, 2);
            final AtomicCounter tasks = counters.allocate(CounterTypes.WORKLIST, "m worklist dev0 w1: tasks", 0, 1);
            sent.setRelease(42);
            tasks.setRelease(7);

            final CountersFileReader reader = CountersFileReader.open(file);
            assertEquals(ProcessHandle.current().pid(), reader.pid());
            assertTrue(reader.isOwnerAlive());
            final CountersFileReader.Header h = reader.header();
            assertEquals(CountersFile.VERSION, h.version());
            assertEquals(CountersFile.DEFAULT_CAPACITY * CountersReader.COUNTER_LENGTH, h.valuesLength());
            assertEquals(Files.size(file), h.fileLength());
            final List<String> seen = new ArrayList<>();
            reader.counters().forEach((value, id, label) -> { }); // the reader's API works on the mapping
            reader.counters().forEach((id, typeId, key, label) -> seen.add(typeId + " "
                + key.getInt(CounterTypes.KEY_DEVICE_OFFSET) + " " + key.getInt(CounterTypes.KEY_INDEX_OFFSET) + " "
                + label + " = " + reader.counters().getCounterValue(id)));
            assertEquals(List.of("7000 1 2 m transport dev1 ep2: messages sent = 42", "7100 0 1 m worklist dev0 w1: "
                + "tasks = 7"), seen);
            sent.setRelease(43); // live: the reader sees the owner's next value
            assertEquals(43, reader.counters().getCounterValue(sent.id()));
            counters.free(sent);
            assertEquals(CountersReader.RECORD_RECLAIMED, reader.counters().getCounterState(sent.id()));
        }
    }

    @Test
    void handlesShareOneFileWhichTheLastCloseDeletes() {
        final OverlapCounters a = OverlapCounters.file(dir);
        final OverlapCounters b = OverlapCounters.file(dir.resolve("..").resolve(dir.getFileName()));
        assertEquals(a.file(), b.file());
        final AtomicCounter c = a.allocate(CounterTypes.TRANSPORT, "x", 0, 0);
        assertSame(a.reader().metaDataBuffer().byteBuffer(), b.reader().metaDataBuffer().byteBuffer());
        a.close();
        a.close();
        assertTrue(Files.exists(b.file()), "b still uses it");
        final IllegalStateException closed = assertThrows(IllegalStateException.class,
            () -> a.allocate(CounterTypes.TRANSPORT, "y", 0, 0));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        b.close();
        assertFalse(Files.exists(b.file()), "deleted on the last close");
        c.setRelease(5); // the mapping outlives the file: a late write touches live memory
        assertEquals(5, c.get());
        a.free(c); // freeing after close is allowed
        try (OverlapCounters again = OverlapCounters.file(dir)) {
            assertTrue(Files.exists(again.file()), "a new file for the next user");
        }
    }

    @Test
    void aFullFileNamesItselfAndTheCapacityProperty() {
        System.setProperty(CountersFile.CAPACITY_PROPERTY, "2");
        try (OverlapCounters counters = OverlapCounters.file(dir)) {
            counters.allocate(CounterTypes.TRANSPORT, "a", 0, 0);
            counters.allocate(CounterTypes.TRANSPORT, "b", 0, 1);
            final IllegalStateException full = assertThrows(IllegalStateException.class,
                () -> counters.allocate(CounterTypes.TRANSPORT, "c", 0, 2));
            assertTrue(full.getMessage().contains(counters.file().toString()) && full.getMessage().contains(
                CountersFile.CAPACITY_PROPERTY), full.getMessage());
        } finally {
            System.clearProperty(CountersFile.CAPACITY_PROPERTY);
        }
    }

    @Test
    void inMemoryGrowsAndReusesFreedSlots() {
        try (OverlapCounters counters = OverlapCounters.inMemory()) {
            assertNull(counters.file());
            final List<AtomicCounter> all = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                final AtomicCounter c = counters.allocate(CounterTypes.TRANSPORT + i % 20, "c" + i, 0, i);
                c.setRelease(i);
                all.add(c);
            }
            for (int i = 0; i < all.size(); i++) {
                assertEquals(i, all.get(i).get(), "counters do not overlap");
            }
            counters.free(all.get(3));
            counters.free(all.get(3)); // idempotent
            final AtomicCounter reused = counters.allocate(CounterTypes.TRANSPORT, "again", 0, 0);
            assertEquals(0, reused.get(), "a new counter starts at zero");
        }
    }

    @Test
    void aUsersManagerHoldsTheCountersAndStaysOpen() {
        final ConcurrentCountersManager mine = new ConcurrentCountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * CountersReader.COUNTER_LENGTH)));
        final AtomicCounter own = mine.newCounter("the user's own");
        try (OverlapCounters counters = OverlapCounters.using(mine)) {
            final AtomicCounter c = counters.allocate(CounterTypes.WORKLIST + 2, "remote pushes", 3, 4);
            assertEquals(CounterTypes.WORKLIST + 2, mine.getCounterTypeId(c.id()));
            assertEquals("remote pushes", mine.getCounterLabel(c.id()));
            assertSame(mine, counters.reader());
        }
        own.increment();
        assertEquals(1, mine.getCounterValue(own.id()));
    }

    @Test
    void theSystemPropertyChoosesTheFile() {
        System.setProperty(CountersFile.DIRECTORY_PROPERTY, dir.toString());
        try (OverlapCounters counters = OverlapCounters.fromSystemProperties()) {
            assertEquals(dir.toAbsolutePath(), counters.file().getParent());
        } finally {
            System.clearProperty(CountersFile.DIRECTORY_PROPERTY);
        }
        try (OverlapCounters counters = OverlapCounters.fromSystemProperties()) {
            assertNull(counters.file());
        }
        assertTrue(CountersFile.defaultDirectory().getFileName().toString().startsWith("overlap-"));
    }
}
