package dev.overlap.graph.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProactDemoCommandTest {
    private static final class Run {
        final int exit;
        final String out;
        final String err;

        Run(final String... args) {
            final CommandLine cl = OverlapCommand.commandLine();
            final StringWriter o = new StringWriter();
            final StringWriter e = new StringWriter();
            cl.setOut(new PrintWriter(o));
            cl.setErr(new PrintWriter(e));
            exit = cl.execute(args);
            out = o.toString();
            err = e.toString();
        }
    }

    @Test
    void demoReplicatesVerifiesAndReports() {
        final Run run = new Run("proact-demo", "--devices", "2", "--threads-per-device", "1", "--region-mib", "1",
            "--chunk-kib", "64", "--iterations", "2", "--work", "2");
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains("TRIGGERED (chunk readiness starts its copy)"), run.out);
        assertTrue(run.out.contains("every replica verified identical to the expected values"), run.out);
        assertTrue(run.out.contains("BULK (compute, then a copy kernel)"), run.out);
    }

    @Test
    void demoRunsOnFourDevices() {
        final Run run = new Run("proact-demo", "--devices", "4", "--threads-per-device", "1", "--region-mib", "2",
            "--iterations", "1", "--work", "0");
        assertEquals(0, run.exit, run.err);
    }

    @Test
    void wrongArgumentsGiveTheReasonInOneLine() {
        Run run = new Run("proact-demo", "--devices", "0");
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("--devices must be in 1..64, was 0"), run.err);
        assertEquals("overlap proact-demo: --devices must be in 1..64, was 0 (try 'overlap proact-demo --help')",
            run.err.strip());

        run = new Run("proact-demo", "--region-mib", "1", "--devices", "3");
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("does not split into 3 slices"), run.err);

        run = new Run("proact-demo", "--iterations", "many");
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("invalid value for option '--iterations'"), run.err);

        run = new Run("proact-demo", "--bogus");
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("unknown option '--bogus'"), run.err);

        run = new Run();
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("missing command"), run.err);
    }
}
