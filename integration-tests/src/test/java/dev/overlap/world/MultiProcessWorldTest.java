package dev.overlap.world;

import dev.overlap.core.World;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mesh across real processes on one host ({@link WorldProbe} is each rank): the ranks join, put into each other's
 * memory, meet at barriers and leave, and the job directory is gone afterwards; a rank killed mid-run (from outside,
 * or crashing by itself) is reported by every survivor, naming it, and the survivors exit instead of hanging, leaving
 * no files. The time bounds here are hang guards, far above the detection bound (a dead process is noticed within a
 * tenth of the 2 s peer timeout the probe sets).
 */
@Tag("slow")
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiProcessWorldTest {
    private static final long BOUND_SECONDS = 60;

    @TempDir
    Path tmp;

    private RankProcesses start(final Path dir, final int ranks, final String mode) throws Exception {
        return new RankProcesses(ranks, r -> List.of(WorldProbe.class.getName(), dir.toString(),
            Integer.toString(ranks), Integer.toString(r), mode));
    }

    @Test
    void threeProcessesShareTheirMemoryMeetAtBarriersAndCleanUp() throws Exception {
        final Path dir = tmp.resolve("overlap-ring");
        try (RankProcesses job = start(dir, 3, "ring")) {
            for (int r = 0; r < 3; r++) {
                assertEquals(0, job.awaitExit(r, BOUND_SECONDS, TimeUnit.SECONDS), "rank " + r + ": " + job.output(r));
                assertTrue(job.output(r).contains("rank " + r + " ok"), job.output(r).toString());
            }
        }
        assertFalse(Files.exists(dir), "the last rank to leave deletes the job directory");
    }

    @Test
    void aKilledProcessIsReportedByEverySurvivorAndNoFilesAreLeft() throws Exception {
        final Path dir = tmp.resolve("overlap-kill");
        try (RankProcesses job = start(dir, 3, "barriers")) {
            for (int r = 0; r < 3; r++) {
                job.awaitLine(r, "rank " + r + " checked", BOUND_SECONDS, TimeUnit.SECONDS);
            }
            job.process(1).destroyForcibly(); // SIGKILL mid-run: no close, no leave
            for (final int r : new int[] {0, 2}) {
                assertEquals(3, job.awaitExit(r, BOUND_SECONDS, TimeUnit.SECONDS), "rank " + r + ": " + job.output(r));
                assertTrue(job.output(r).stream().anyMatch(l -> l.startsWith("rank " + r + ": rank 1 failed: its "
                    + "process")), "rank " + r + " names rank 1: " + job.output(r));
            }
        }
        assertFalse(Files.exists(dir), "the survivors delete the job directory");
    }

    @Test
    void aProcessThatCrashesByItselfIsReportedAndItsStaleFilesCanBeRemoved() throws Exception {
        final Path dir = tmp.resolve("overlap-crash");
        try (RankProcesses job = start(dir, 2, "die-after-join")) {
            assertEquals(137, job.awaitExit(1, BOUND_SECONDS, TimeUnit.SECONDS), job.output(1).toString());
            assertEquals(3, job.awaitExit(0, BOUND_SECONDS, TimeUnit.SECONDS), job.output(0).toString());
            assertTrue(job.output(0).stream().anyMatch(l -> l.startsWith("rank 0: rank 1 failed")),
                job.output(0).toString());
        }
        assertFalse(Files.exists(dir), "the survivor deletes the job directory");
        // a job whose every process died leaves its directory: the next launch removes it
        final Path stale = tmp.resolve("overlap-stale");
        try (RankProcesses job = start(stale, 2, "barriers")) {
            for (int r = 0; r < 2; r++) {
                job.awaitLine(r, "rank " + r + " checked", BOUND_SECONDS, TimeUnit.SECONDS);
            }
            job.process(0).destroyForcibly().waitFor(BOUND_SECONDS, TimeUnit.SECONDS);
            job.process(1).destroyForcibly().waitFor(BOUND_SECONDS, TimeUnit.SECONDS);
        }
        assertTrue(Files.exists(stale.resolve("world.ctl")), "nobody was left to clean up");
        assertEquals(List.of(stale), World.removeStale(tmp));
        assertFalse(Files.exists(stale));
    }
}
