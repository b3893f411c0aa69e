package dev.overlap.bench.graph;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code overlap bench-graphs} fails as the {@code overlap} command does: one line on standard error and exit code
 * 1, a memory failure naming what ran out and the option that raises it, also when it happens in a forked
 * measurement. Runs {@link GraphComparison#main} in a forked JVM with small memory limits.
 */
class GraphComparisonErrorsTest {
    @TempDir
    Path dir;

    private static final class Forked {
        final int exit;
        final String out;
        final String err;

        Forked(final List<String> jvmOptions, final String... args) throws IOException, InterruptedException {
            final List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("--add-exports");
            cmd.add("java.base/jdk.internal.misc=ALL-UNNAMED");
            cmd.addAll(jvmOptions);
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(GraphComparison.class.getName());
            cmd.addAll(List.of(args));
            final Path stdout = Files.createTempFile("bench-graphs", ".out");
            final Path stderr = Files.createTempFile("bench-graphs", ".err");
            try {
                final Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                    .start();
                if (!p.waitFor(180, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                    throw new AssertionError("bench-graphs did not finish in 180 s: " + String.join(" ", args));
                }
                exit = p.exitValue();
                out = Files.readString(stdout);
                err = Files.readString(stderr);
            } finally {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            }
        }
    }

    private static void assertOneLine(final Forked run, final String... parts) {
        assertEquals(1, run.exit, run.err);
        final String line = run.err.strip();
        assertFalse(line.contains("\n"), "more than one line:\n" + run.err);
        assertTrue(line.startsWith("overlap bench-graphs: "), run.err);
        assertFalse(line.contains("Exception") || line.contains("\tat "), "a raw exception:\n" + run.err);
        for (final String part : parts) {
            assertTrue(line.contains(part), "'" + part + "' missing from: " + line);
        }
    }

    @Test
    void outOfMemoryIsOneLineWithHint() throws Exception {
        final Forked run = new Forked(List.of("-Xmx64m"), "--graphs", "kron:22", "--apps", "bfs", "--impls", "java",
            "--quiet", "--out", dir.toString());
        assertOneLine(run, "out of heap memory", "OVERLAP_JAVA_OPTS=-Xmx");
    }

    @Test
    void outOfMemoryInAForkedMeasurementIsOneLineOfTheParent() throws Exception {
        // the parent generates the graph and runs the Java reference on the heap; only the forked bsp measurement
        // builds a mesh, whose device memory cannot fit in 4 MiB of direct memory
        final Forked run = new Forked(List.of("-XX:MaxDirectMemorySize=4m"), "--graphs", "kron:8", "--apps", "bfs",
            "--impls", "bsp", "--warmups", "0", "--runs", "1", "--quiet", "--out", dir.toString());
        assertOneLine(run, "out of direct memory", "OVERLAP_JAVA_OPTS=-XX:MaxDirectMemorySize=",
            "(in the forked measurement of bsp bfs on kron:8");
    }

    @Test
    void anUnwritableOutputDirectoryFailsBeforeMeasuring() throws Exception {
        final Path file = Files.writeString(dir.resolve("file"), "x");
        final Forked run = new Forked(List.of(), "--graphs", "kron:8", "--apps", "bfs", "--impls", "java", "--quiet",
            "--out", file.resolve("sub").toString());
        assertOneLine(run, file.resolve("sub") + ": cannot create the --out directory: ");
    }
}
