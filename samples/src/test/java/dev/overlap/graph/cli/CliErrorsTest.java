package dev.overlap.graph.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every CLI failure is one line on standard error and exit code 1, never a stack trace; usage errors stay exit 2.
 * The memory cases run the real launcher class in a forked JVM with a small heap or direct-memory limit, so the
 * {@link OutOfMemoryError} is the JVM's own.
 */
class CliErrorsTest {
    @TempDir
    Path dir;

    /** A run of the command line in this JVM. */
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

    /** A run of {@code OverlapCommand.main} in a forked JVM (the launcher's flags plus {@code jvmOptions}). */
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
            cmd.add(OverlapCommand.class.getName());
            cmd.addAll(List.of(args));
            final ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().remove(CliErrors.STACKTRACE_ENV);
            final Path stdout = Files.createTempFile("overlap-cli", ".out");
            final Path stderr = Files.createTempFile("overlap-cli", ".err");
            try {
                final Process p = pb.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                    throw new AssertionError("the forked CLI did not finish in 120 s: " + String.join(" ", args));
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

    private static void assertOneLine(final String command, final int exit, final String err, final String... parts) {
        assertEquals(1, exit, err);
        final String line = err.strip();
        assertFalse(line.contains("\n"), "more than one line:\n" + err);
        assertTrue(line.startsWith("overlap " + command + ": "), err);
        assertFalse(line.contains("Exception") || line.contains("\tat "), "a raw exception:\n" + err);
        for (final String part : parts) {
            assertTrue(line.contains(part), "'" + part + "' missing from: " + line);
        }
    }

    private Path write(final String name, final String text) throws IOException {
        final Path p = dir.resolve(name);
        Files.write(p, text.getBytes(StandardCharsets.US_ASCII));
        return p;
    }

    @Test
    void outOfMemoryIsOneLineWithHint() throws Exception {
        // the Kronecker edge list of scale 22 (64 M edges) cannot fit in 64 MiB: the JVM's own heap OOM
        final Forked run = new Forked(List.of("-Xmx64m"), "bfs", "--generate", "kron:22", "--quiet");
        assertOneLine("bfs", run.exit, run.err, "out of heap memory", "maximum heap", "OVERLAP_JAVA_OPTS=-Xmx");
        assertEquals("", run.out);
    }

    @Test
    void directMemoryOutOfMemoryIsOneLineWithHint() throws Exception {
        // every device gets at least 8 MiB of direct memory: a 4 MiB limit fails the first allocation of the mesh
        final Forked run = new Forked(List.of("-XX:MaxDirectMemorySize=4m"), "bfs", "--generate", "kron:8", "--quiet");
        assertOneLine("bfs", run.exit, run.err, "out of direct memory", "limit 4.0 MiB",
            "OVERLAP_JAVA_OPTS=-XX:MaxDirectMemorySize=");
    }

    @Test
    void outOfMemoryInEverySubcommandIsOneLine() throws Exception {
        final String[][] cases = {
            {"pr", "--generate", "kron:22", "--quiet"},
            {"sssp", "--generate", "kron:22", "--quiet"},
            {"scaling", "bfs", "--generate", "kron:22", "--quiet", "--out", dir.resolve("s").toString()},
            {"generate", "kron:22", dir.resolve("k.bcsr").toString(), "--quiet"},
            {"jacobi", "--size", "10000000", "--quiet"},
            {"demo", "--graphs", "kron:22", "--apps", "bfs", "--modes", "bsp", "--quiet"},
            {"proact-demo", "--region-mib", "256", "--iterations", "1"},
        };
        for (final String[] args : cases) {
            final Forked run = new Forked(List.of("-Xmx64m", "-XX:MaxDirectMemorySize=64m"), args);
            assertOneLine(args[0], run.exit, run.err, "out of ", "OVERLAP_JAVA_OPTS=-X");
        }
    }

    @Test
    void outOfMemoryWrappedByAFailedKernelStillNamesWhatRanOut() {
        final RuntimeException kernel = new IllegalStateException("kernel failed on device 1, block 7",
            new OutOfMemoryError("Java heap space"));
        final String line = CliErrors.describe(new RuntimeException("run failed", kernel));
        assertTrue(line.startsWith("out of heap memory (Java heap space; maximum heap "), line);
        assertTrue(line.contains("OVERLAP_JAVA_OPTS=-Xmx"), line);
        final String direct = CliErrors.describe(new IllegalStateException("place failed", new OutOfMemoryError(
            "Cannot reserve 8388608 bytes of direct buffer memory (allocated: 1048576, limit: 4194304)")));
        assertTrue(direct.startsWith("out of direct memory, where device memory lives (could not reserve 8.0 MiB "
            + "more with 1.0 MiB in use, limit 4.0 MiB): raise the limit, e.g. "
            + "OVERLAP_JAVA_OPTS=-XX:MaxDirectMemorySize=1g"), direct);
    }

    @Test
    void outOfMemoryInAnotherThreadIsOneLineAndExitsOne() throws Exception {
        final Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        final StringWriter err = new StringWriter();
        final AtomicInteger exit = new AtomicInteger(-1);
        try {
            final Thread.UncaughtExceptionHandler h = CliErrors.exitOnUncaught(new PrintWriter(err), () -> "overlap bfs",
                exit::set);
            final Thread t = new Thread(() -> {
                throw new OutOfMemoryError("Java heap space");
            }, "dev0-xfer1");
            t.setUncaughtExceptionHandler(h);
            t.start();
            t.join(10_000);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        assertEquals(1, exit.get());
        assertOneLine("bfs (thread dev0-xfer1)", 1, err.toString(), "out of heap memory");
    }

    @Test
    void tooLargeForTheDevicesIsOneLine() {
        final Run run = new Run("jacobi", "--size", "100000000", "--devices", "1", "--quiet");
        assertOneLine("jacobi", run.exit, run.err, "--size 100000000 needs ", "more than a device holds (2 GiB): "
            + "use more --devices");
    }

    @Test
    void unexpectedFailureIsOneInternalErrorLine() {
        final String line = CliErrors.describe(new NullPointerException("x is null\nsecond line"));
        assertTrue(line.startsWith("internal error: java.lang.NullPointerException: x is null; second line at "), line);
        assertTrue(line.endsWith("(OVERLAP_STACKTRACE=1 prints the stack trace)"), line);
        final StringWriter err = new StringWriter();
        assertEquals(1, CliErrors.report(new PrintWriter(err), "overlap demo", new StackOverflowError()));
        assertEquals("overlap demo: stack overflow: raise the thread stack size, e.g. OVERLAP_JAVA_OPTS=-Xss16m",
            err.toString().strip());
    }

    @Test
    void directoryAsInputNamesThePath() throws IOException {
        for (final String name : new String[] {"graph.el", "graph.bcsr", "graph.mtx.gz"}) {
            final Path d = Files.createDirectory(dir.resolve(name));
            for (final String app : new String[] {"bfs", "pr", "sssp"}) {
                final Run run = new Run(app, "--graph", d.toString(), "--quiet");
                assertOneLine(app, run.exit, run.err, d + ": is a directory, not a graph file");
            }
            Run run = new Run("convert", d.toString(), dir.resolve("out.bcsr").toString(), "-q");
            assertOneLine("convert", run.exit, run.err, d + ": is a directory, not a graph file");
            run = new Run("scaling", "bfs", "--graph", d.toString(), "--quiet", "--out", dir.resolve("s").toString());
            assertOneLine("scaling", run.exit, run.err, d + ": is a directory, not a graph file");
        }
        final Path profile = Files.createDirectory(dir.resolve("profile.json"));
        final Run run = new Run("jacobi", "--size", "1000", "--profile", profile.toString(), "--quiet");
        assertOneLine("jacobi", run.exit, run.err, profile + ": is a directory, not a transfer profile");
    }

    @Test
    void missingInputNamesThePath() throws IOException {
        final Path missing = dir.resolve("missing.el");
        Run run = new Run("bfs", "--graph", missing.toString(), "--quiet");
        assertOneLine("bfs", run.exit, run.err, missing + ": no such file");
        run = new Run("convert", dir.resolve("missing.bcsr").toString(), dir.resolve("o.bcsr").toString(), "-q");
        assertOneLine("convert", run.exit, run.err, dir.resolve("missing.bcsr") + ": no such file");
        final Path link = Files.createSymbolicLink(dir.resolve("dangling.el"), dir.resolve("gone.el"));
        run = new Run("sssp", "--graph", link.toString(), "--quiet");
        assertOneLine("sssp", run.exit, run.err, link + ": broken symbolic link");
    }

    @Test
    void unreadableInputNamesThePath() throws IOException {
        final Path p = write("secret.el", "0 1\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("---------"));
        try {
            assumeFalse(Files.isReadable(p), "the file stays readable (tests run as root)");
            final Run run = new Run("bfs", "--graph", p.toString(), "--quiet");
            assertOneLine("bfs", run.exit, run.err, p + ": permission denied");
        } finally {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void readErrorNamesThePath() {
        // reading /proc/self/mem from offset 0 fails with EIO on Linux: an I/O error in the middle of a load
        final Path mem = Path.of("/proc/self/mem");
        assumeTrue(Files.isReadable(mem), "needs Linux /proc");
        final Run run = new Run("bfs", "--graph", mem.toString(), "--format", "EL", "--quiet");
        assertOneLine("bfs", run.exit, run.err, mem + ": cannot read: ");
    }

    @Test
    void malformedLineNamesFileAndLine() throws IOException {
        final Path el = write("bad.el", "0 1\n1 2\nx y\n");
        Run run = new Run("bfs", "--graph", el.toString(), "--quiet");
        assertOneLine("bfs", run.exit, run.err, el + ":3: source vertex is not an integer: 'x'");
        final Path gr = write("bad.gr", "p sp 3 1\na 1 9 1\n");
        run = new Run("sssp", "--graph", gr.toString(), "--quiet");
        assertOneLine("sssp", run.exit, run.err, gr + ":2: ");
    }

    @Test
    void emptyInputNamesThePathAndExitsOne() throws IOException {
        final Path empty = write("empty.el", "# nothing but a comment\n");
        final Run run = new Run("bfs", "--graph", empty.toString(), "--quiet");
        assertOneLine("bfs", run.exit, run.err, empty + ": no vertices");
        assertFalse(run.err.contains("Usage"), run.err);
    }

    @Test
    void unwritableOutputNamesThePath() throws IOException {
        final Path el = write("g.el", "0 1\n1 2\n");
        final Path asDir = Files.createDirectory(dir.resolve("taken.bcsr"));
        Run run = new Run("convert", el.toString(), asDir.toString(), "-q");
        assertOneLine("convert", run.exit, run.err, asDir + ": is a directory");
        run = new Run("generate", "kron:4", asDir.toString(), "-q");
        assertOneLine("generate", run.exit, run.err, asDir + ": is a directory");
        final Path nowhere = dir.resolve("no/such/dir/g.bcsr");
        run = new Run("convert", el.toString(), nowhere.toString(), "-q");
        assertOneLine("convert", run.exit, run.err, nowhere + ": no such directory " + nowhere.getParent());
        run = new Run("jacobi", "--size", "1000", "--transfer", "profile", "--profile", nowhere.toString(), "--quiet");
        assertOneLine("jacobi", run.exit, run.err, nowhere + ": no such directory");
        final Path underFile = el.resolve("sub");
        run = new Run("scaling", "bfs", "--generate", "kron:4", "--quiet", "--out", underFile.toString());
        assertOneLine("scaling", run.exit, run.err, underFile + ": cannot create the --out directory: ");
        assertTrue(Files.isRegularFile(el));
    }

    @Test
    void usageErrorsStillExitTwoWithTheUsage() {
        final String[][] cases = {
            {"bfs", "--generate", "kron:4", "--bogus"},
            {"convert", "a.el"},
            {"generate", "kron:4", "out.txt"},
            {"scaling", "bfs", "--generate", "kron:4", "--max-devices", "0"},
            {"demo", "--graphs", "ring:4"},
            {"jacobi", "--size", "0"},
        };
        for (final String[] args : cases) {
            final Run run = new Run(args);
            assertEquals(2, run.exit, String.join(" ", args) + ": " + run.err);
            assertTrue(run.err.contains("Usage: overlap"), run.err);
            assertFalse(run.err.contains("\tat "), run.err);
        }
        final Run unknown = new Run("nonsense");
        assertEquals(2, unknown.exit, unknown.err);
        assertTrue(unknown.err.startsWith("Unmatched argument at index 0: 'nonsense'"), unknown.err);
    }

    @Test
    void fileSystemErrorsNameTheFileWithoutTheExceptionClass() {
        assertEquals("/data/g.el: permission denied", CliErrors.describe(new AccessDeniedException("/data/g.el")));
        assertEquals("I/O error: disk on fire", CliErrors.describe(new IOException("disk on fire")));
    }
}
