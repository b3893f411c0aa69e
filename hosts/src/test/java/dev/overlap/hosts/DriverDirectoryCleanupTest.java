package dev.overlap.hosts;

import dev.overlap.core.ProcessLiveness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded drivers' directories a killed rank leaves behind (it never ran its close) are removed by the next
 * group made on that host, and only those: a live process's directory and directories whose names do not say whose
 * they are stay.
 */
class DriverDirectoryCleanupTest {
    @TempDir
    Path base;

    @Test
    void aDeadRanksDirectoryGoesALiveOnesAndOthersStay() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(30, TimeUnit.SECONDS));
        final long deadPid = gone.pid();
        final Path dead = dir("r1-p" + deadPid + "-s0-123");
        Files.writeString(dead.resolve("cnc.dat"), "left by a killed rank");
        final long me = ProcessHandle.current().pid();
        final Path live = dir("r0-p" + me + "-s" + ProcessLiveness.currentStartMillis() + "-456");
        final Path legacy = dir("r1-789");
        final Path other = Files.createDirectory(base.resolve("somebody-elses"));

        final List<Path> removed = HostGroup.removeStaleDriverDirectories(base);

        assertEquals(List.of(dead), removed);
        assertFalse(Files.exists(dead), "the dead rank's directory and its files are gone");
        assertTrue(Files.isDirectory(live), "a live process's directory stays");
        assertTrue(Files.isDirectory(legacy), "a name without a pid proves nothing: it stays");
        assertTrue(Files.isDirectory(other));
    }

    @Test
    void aBaseThatCannotBeListedRemovesNothing() {
        assertEquals(List.of(), HostGroup.removeStaleDriverDirectories(base.resolve("missing")));
    }

    private Path dir(final String tail) throws Exception {
        return Files.createDirectory(base.resolve(HostGroup.DRIVER_DIRECTORY_PREFIX + tail));
    }
}
