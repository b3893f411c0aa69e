package dev.overlap.graph.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
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
@Tag("slow")
class CliErrorsTest {
    @TempDir
    Path dir;

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
        final ForkedCli run = new ForkedCli(List.of("-Xmx64m"), "bfs", "--generate", "kron:22", "--quiet");
        assertOneLine("bfs", run.exit, run.err, "out of heap memory", "maximum heap", "OVERLAP_JAVA_OPTS=-Xmx");
        assertEquals("", run.outText());
    }

    @Test
    void directMemoryOutOfMemoryIsOneLineWithHint() throws Exception {
        // every device gets at least 1 MiB of direct memory: a 512 KiB limit fails the first allocation of the mesh
        final ForkedCli run = new ForkedCli(List.of("-XX:MaxDirectMemorySize=512k"), "bfs", "--generate", "kron:8",
            "--quiet");
        assertOneLine("bfs", run.exit, run.err, "out of direct memory", "limit 512.0 KiB",
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
            final ForkedCli run = new ForkedCli(List.of("-Xmx64m", "-XX:MaxDirectMemorySize=64m"), args);
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
        final CliRun run = new CliRun("jacobi", "--size", "100000000", "--devices", "1", "--quiet");
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
                final CliRun run = new CliRun(app, "--graph", d.toString(), "--quiet");
                assertOneLine(app, run.exit, run.err, d + ": is a directory, not a graph file");
            }
            CliRun run = new CliRun("convert", d.toString(), dir.resolve("out.bcsr").toString(), "-q");
            assertOneLine("convert", run.exit, run.err, d + ": is a directory, not a graph file");
            run = new CliRun("scaling", "bfs", "--graph", d.toString(), "--quiet", "--out", dir.resolve("s").toString());
            assertOneLine("scaling", run.exit, run.err, d + ": is a directory, not a graph file");
        }
        final Path profile = Files.createDirectory(dir.resolve("profile.json"));
        final CliRun run = new CliRun("jacobi", "--size", "1000", "--profile", profile.toString(), "--quiet");
        assertOneLine("jacobi", run.exit, run.err, profile + ": is a directory, not a transfer profile");
    }

    @Test
    void missingInputNamesThePath() throws IOException {
        final Path missing = dir.resolve("missing.el");
        CliRun run = new CliRun("bfs", "--graph", missing.toString(), "--quiet");
        assertOneLine("bfs", run.exit, run.err, missing + ": no such file");
        run = new CliRun("convert", dir.resolve("missing.bcsr").toString(), dir.resolve("o.bcsr").toString(), "-q");
        assertOneLine("convert", run.exit, run.err, dir.resolve("missing.bcsr") + ": no such file");
        final Path link = Files.createSymbolicLink(dir.resolve("dangling.el"), dir.resolve("gone.el"));
        run = new CliRun("sssp", "--graph", link.toString(), "--quiet");
        assertOneLine("sssp", run.exit, run.err, link + ": broken symbolic link");
    }

    @Test
    void unreadableInputNamesThePath() throws IOException {
        final Path p = write("secret.el", "0 1\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("---------"));
        try {
            assumeFalse(Files.isReadable(p), "the file stays readable (tests run as root)");
            final CliRun run = new CliRun("bfs", "--graph", p.toString(), "--quiet");
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
        final CliRun run = new CliRun("bfs", "--graph", mem.toString(), "--format", "EL", "--quiet");
        assertOneLine("bfs", run.exit, run.err, mem + ": cannot read: ");
    }

    @Test
    void malformedLineNamesFileAndLine() throws IOException {
        final Path el = write("bad.el", "0 1\n1 2\nx y\n");
        CliRun run = new CliRun("bfs", "--graph", el.toString(), "--quiet");
        assertOneLine("bfs", run.exit, run.err, el + ":3: source vertex is not an integer: 'x'");
        final Path gr = write("bad.gr", "p sp 3 1\na 1 9 1\n");
        run = new CliRun("sssp", "--graph", gr.toString(), "--quiet");
        assertOneLine("sssp", run.exit, run.err, gr + ":2: ");
    }

    @Test
    void binaryInputIsOneLineWithoutControlCharacters() throws IOException {
        final Path bin = dir.resolve("binary.el");
        Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 1, 2, 0, '\t', 27, '[', '2', 'J', '\r', '\n', 0, 0});
        final CliRun run = new CliRun("bfs", "--graph", bin.toString(), "--quiet");
        assertOneLine("bfs", run.exit, run.err, bin + ":1: ");
        assertTrue(run.err.strip().chars().noneMatch(Character::isISOControl), run.err);
    }

    @Test
    void anOutputThatIsTheInputIsRefused() throws IOException {
        final Path el = write("g.el", "0 1\n1 2\n");
        for (final String output : new String[] {el.toString(), dir.resolve(".").resolve("g.el").toString()}) {
            final CliRun run = new CliRun("bfs", "--graph", el.toString(), "--output", output, "--quiet");
            assertEquals(2, run.exit, run.err);
            assertEquals("overlap bfs: --output " + output + " is the input graph file: the answer would replace it "
                + "(try 'overlap bfs --help')", run.err.strip());
        }
        assertEquals("0 1\n1 2\n", Files.readString(el));
    }

    @Test
    void emptyInputNamesThePathAndExitsOne() throws IOException {
        final Path empty = write("empty.el", "# nothing but a comment\n");
        final CliRun run = new CliRun("bfs", "--graph", empty.toString(), "--quiet");
        assertOneLine("bfs", run.exit, run.err, empty + ": no vertices");
        assertFalse(run.err.contains("Usage"), run.err);
    }

    @Test
    void unwritableOutputNamesThePath() throws IOException {
        final Path el = write("g.el", "0 1\n1 2\n");
        final Path asDir = Files.createDirectory(dir.resolve("taken.bcsr"));
        CliRun run = new CliRun("convert", el.toString(), asDir.toString(), "-q");
        assertOneLine("convert", run.exit, run.err, asDir + ": is a directory");
        run = new CliRun("generate", "kron:4", asDir.toString(), "-q");
        assertOneLine("generate", run.exit, run.err, asDir + ": is a directory");
        final Path nowhere = dir.resolve("no/such/dir/g.bcsr");
        run = new CliRun("convert", el.toString(), nowhere.toString(), "-q");
        assertOneLine("convert", run.exit, run.err, nowhere + ": no such directory " + nowhere.getParent());
        run = new CliRun("jacobi", "--size", "1000", "--transfer", "profile", "--profile", nowhere.toString(), "--quiet");
        assertOneLine("jacobi", run.exit, run.err, nowhere + ": no such directory");
        final Path underFile = el.resolve("sub");
        run = new CliRun("scaling", "bfs", "--generate", "kron:4", "--quiet", "--out", underFile.toString());
        assertOneLine("scaling", run.exit, run.err, underFile + ": cannot create the --out directory: ");
        assertTrue(Files.isRegularFile(el));
    }

    @Test
    void unwritableAnswerOutputIsOneLineNamingThePathBeforeAnyWork() throws IOException {
        final Path taken = Files.createDirectory(dir.resolve("answers"));
        final Path nowhere = dir.resolve("no/such/dir/answer.txt");
        final Path file = write("g.el", "0 1\n");
        final Path underFile = file.resolve("answer.txt");
        // the input does not exist: a line about the output shows that it was checked first
        final String missing = dir.resolve("missing.el").toString();
        final String[][] apps = {{"bfs", "--graph", missing}, {"pr", "--graph", missing}, {"sssp", "--graph", missing},
            {"jacobi", "--size", "1000"}};
        for (final String[] app : apps) {
            assertOutputFails(app, taken.toString(), taken + ": is a directory, not a file for the answer");
            assertOutputFails(app, nowhere.toString(), nowhere + ": no such directory " + nowhere.getParent());
            assertOutputFails(app, underFile.toString(), underFile + ": " + file + " is not a directory");
            if (Files.isDirectory(Path.of("/proc/self"))) {
                assertOutputFails(app, "/proc/x", "/proc/x: cannot create the --output file: no such file or "
                    + "directory");
            }
            if (Files.isDirectory(Path.of("/sys/kernel"))) {
                assertOutputFails(app, "/sys/x", "/sys/x: cannot create the --output file: ");
            }
        }
        assertTrue(Files.isRegularFile(file));
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertEquals(2, left.count(), "a temporary answer file was left behind");
        }
    }

    @Test
    void aFullDeviceIsOneLineNamingIt() {
        final Path full = Path.of("/dev/full");
        assumeTrue(Files.isWritable(full), "needs Linux /dev/full");
        final String[][] apps = {{"bfs", "--generate", "kron:6"}, {"pr", "--generate", "kron:6"},
            {"sssp", "--generate", "kron:6"}, {"jacobi", "--size", "1000"}};
        for (final String[] app : apps) {
            for (final String format : new String[] {"text", "binary"}) {
                final CliRun run = new CliRun(concat(app, "--output", full.toString(), "--output-format", format,
                    "--quiet"));
                assertOneLine(app[0], run.exit, run.err, "/dev/full: cannot write the answer: no space left on device");
                assertEquals("", run.out, "no report after a failed write");
            }
        }
    }

    @Test
    void readOnlyAnswerFileNamesThePath() throws IOException {
        final Path p = write("bfs.txt", "kept\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r--r--r--"));
        try {
            assumeFalse(Files.isWritable(p), "the file stays writable (tests run as root)");
            assertOutputFails(new String[] {"bfs", "--generate", "kron:4"}, p.toString(), p + ": permission denied");
            assertEquals("kept\n", Files.readString(p));
        } finally {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void aFailedRunKeepsTheOldAnswerAndLeavesNoTemporaryFile() throws IOException {
        final Path answer = write("bfs.txt", "old answer\n");
        final Path bad = write("bad.el", "0 1\nx y\n");
        for (final String format : new String[] {"text", "binary"}) {
            final CliRun run = new CliRun("bfs", "--graph", bad.toString(), "--output", answer.toString(),
                "--output-format", format, "--quiet");
            assertOneLine("bfs", run.exit, run.err, bad + ":2: ");
            assertEquals("old answer\n", Files.readString(answer));
            try (java.util.stream.Stream<Path> left = Files.list(dir)) {
                assertEquals(2, left.count(), "a temporary answer file was left behind");
            }
        }
    }

    private static void assertOutputFails(final String[] app, final String output, final String expected) {
        final CliRun run = new CliRun(concat(app, "--output", output, "--quiet"));
        assertOneLine(app[0], run.exit, run.err, expected);
        assertTrue(run.err.startsWith("overlap " + app[0] + ": " + expected), run.err);
        assertEquals("", run.out);
    }

    private static String[] concat(final String[] a, final String... b) {
        final String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void usageErrorsAreOneLineNamingTheArgumentWithAHint() {
        final String[][] cases = {
            {"bfs", "--generate", "kron:4", "--bogus"}, {"overlap bfs: unknown option '--bogus'"},
            {"bfs", "--generate", "kron:4", "--sorce", "3"}, {"overlap bfs: unknown option '--sorce', did you mean "
                + "'--source'?"},
            {"bfs"}, {"overlap bfs: missing required argument (specify one of these): (--graph=FILE | --generate=SPEC)"},
            {"pr", "--generate", "kron:4", "--runs", "x"}, {"overlap pr: invalid value for option '--runs': 'x' is not an "
                + "int"},
            {"pr", "--generate", "kron:4", "--sweep", "sor"}, {"overlap pr: --sweep must be auto, jacobi or "
                + "gauss-seidel, was 'sor'"},
            {"pr", "--generate", "kron:4", "--sweep", "gauss-seidel", "--mode", "bsp"}, {"overlap pr: --sweep "
                + "gauss-seidel runs in --mode solo or coop, not bsp"},
            {"pr", "--generate", "kron:4", "--sweep", "gauss-seidel", "--iterations", "5"}, {"overlap pr: --sweep "
                + "gauss-seidel runs to --tolerance: --iterations does not apply (its answer after a fixed number of "
                + "sweeps depends on the workers' interleaving)"},
            {"sssp", "--generate", "kron:4", "extra"}, {"overlap sssp: unexpected argument 'extra'"},
            {"bfs", "--generate", "kron:4", "--format", "xyz"}, {"overlap bfs: invalid value for option '--format': "},
            {"bfs", "--generate", "kron:4", "--warmups", "-1"}, {"overlap bfs: --warmups must be in 0..100, was -1"},
            {"sssp", "--generate", "kron:4", "--warmup-ms", "-3"},
                {"overlap sssp: --warmup-ms must be in 0..60000, was -3"},
            {"bfs", "--generate", "kron:4", "--output-format", "binary"}, {"overlap bfs: --output-format needs "
                + "--output FILE"},
            {"jacobi", "--size", "100", "--output", ""}, {"overlap jacobi: --output needs a file name"},
            {"convert", "a.el"}, {"overlap convert: missing required parameter: 'OUT.bcsr'"},
            {"generate", "kron:4", "out.txt"}, {"overlap generate: OUT must end in .bcsr, was 'out.txt'"},
            {"scaling", "bfs", "--generate", "kron:4", "--max-devices", "0"}, {"overlap scaling: --max-devices must be "
                + "in 1..64, was 0"},
            {"demo", "--graphs", "ring:4"}, {"overlap demo: invalid value for option '--graphs' (SPEC): unknown generator 'ring'"},
            {"jacobi", "--size", "0"}, {"overlap jacobi: --size must be in 1.."},
            {"nonsense"}, {"overlap: unknown command 'nonsense'"},
            {}, {"overlap: missing command, e.g. 'overlap demo'"},
            {"--bogus"}, {"overlap: unknown option '--bogus'"},
        };
        for (int i = 0; i < cases.length; i += 2) {
            final String[] args = cases[i];
            final CliRun run = new CliRun(args);
            final String line = run.err.strip();
            final String command = line.substring(0, line.indexOf(':'));
            assertEquals(2, run.exit, String.join(" ", args) + ": " + run.err);
            assertFalse(line.contains("\n"), "more than one line:\n" + run.err);
            assertTrue(line.startsWith(cases[i + 1][0]), "'" + cases[i + 1][0] + "' expected at the start of: " + line);
            assertTrue(line.endsWith(" (try '" + command + " --help')"), line);
            assertFalse(run.err.contains("Usage:") || run.err.contains("\tat "), run.err);
            assertEquals("", run.out, String.join(" ", args));
        }
    }

    @Test
    void launcherCommandsGivenToTheJarSayWhereTheyRun() {
        for (final String command : new String[] {"bench", "bench-graphs"}) {
            final CliRun run = new CliRun(command, "--quick");
            assertEquals(2, run.exit, run.err);
            assertEquals("overlap: '" + command + "' is run by the ./overlap launcher script, not by the jar (try "
                + "'./overlap " + command + " --help')", run.err.strip());
        }
    }

    @Test
    void fileSystemErrorsNameTheFileWithoutTheExceptionClass() {
        assertEquals("/data/g.el: permission denied", CliErrors.describe(new AccessDeniedException("/data/g.el")));
        assertEquals("I/O error: disk on fire", CliErrors.describe(new IOException("disk on fire")));
    }
}
