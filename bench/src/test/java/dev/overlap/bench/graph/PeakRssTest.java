package dev.overlap.bench.graph;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Peak RSS readings: /proc status text, GNU time's output, the idle JVM's line, and a real external run. */
class PeakRssTest {
    @TempDir
    Path dir;

    @Test
    void statusAndTimeOutputsAreParsed() {
        assertEquals(123456, PeakRss.parseStatus("Name:\tjava\nVmPeak:\t 999999 kB\nVmHWM:\t  123456 kB\n"
            + "VmRSS:\t 100000 kB\n"));
        assertEquals(PeakRss.UNKNOWN, PeakRss.parseStatus("Name:\tzombie\nState:\tZ (zombie)\n"),
            "an exited process has no VmHWM line");
        assertEquals(PeakRss.UNKNOWN, PeakRss.parseStatus("VmHWM:\t lots kB\n"));
        assertEquals(51234, PeakRss.parseTimeOutput("51234\n"));
        assertEquals(7000, PeakRss.parseTimeOutput("Command exited with non-zero status 2\n7000\n"));
        assertEquals(PeakRss.UNKNOWN, PeakRss.parseTimeOutput(""));
        assertEquals(PeakRss.UNKNOWN, PeakRss.ofStatus(dir.resolve("no-such-status")));
        assertEquals(40960, IdleJvm.parse("IDLE\t40960"));
        assertEquals(PeakRss.UNKNOWN, IdleJvm.parse("Picked up JAVA_TOOL_OPTIONS: -Xmx1g"));
        assertEquals(PeakRss.UNKNOWN, IdleJvm.parse(null));
    }

    @Test
    void thisJvmHasAPeakRssOnLinux() {
        if (Files.exists(Path.of("/proc/self/status"))) {
            assertTrue(PeakRss.selfKib() > 1024, "a JVM uses more than 1 MiB: " + PeakRss.selfKib());
        } else {
            assertEquals(PeakRss.UNKNOWN, PeakRss.selfKib());
        }
    }

    /** Both ways of measuring: GNU time (when installed) and the /proc polling fallback. */
    @Test
    void anExternalRunReturnsItsExitOutputAndAPeakRss() throws IOException {
        final List<String> cmd = List.of("sh", "-c", "echo one; echo \"$OVERLAP_TEST_VALUE\" >&2; "
            + "head -c 20000000 /dev/zero | tail -c 1 >/dev/null; exit 3");
        final ExternalRun polling = new ExternalRun(null);
        final ExternalRun.Result p = polling.run(cmd, Map.of("OVERLAP_TEST_VALUE", "two"));
        assertEquals(3, p.exit);
        assertEquals(List.of("one", "two"), p.lines, "standard error merged, environment passed");
        assertTrue(!p.exactRss);
        if (Files.isExecutable(ExternalRun.GNU_TIME)) {
            final ExternalRun.Result t = ExternalRun.onThisMachine().run(cmd, Map.of("OVERLAP_TEST_VALUE", "two"));
            assertEquals(3, t.exit);
            assertEquals(List.of("one", "two"), t.lines);
            assertTrue(t.exactRss);
            assertTrue(t.peakRssKib > 0, "GNU time's figure: " + t.peakRssKib);
        }
    }
}
