package dev.overlap.graph.cli;

import dev.overlap.core.World;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code overlap launch --processes N [--dir BASE] [--peer-timeout DUR] [--join-timeout DUR] COMMAND [ARGS...]}: runs
 * a command that works across processes ({@code bfs}, {@code pr}, {@code sssp}, {@code jacobi}) in {@code N} JVMs on
 * this host, one mesh spanning them through shared memory.
 *
 * <p><b>What it does.</b> Checks the command's arguments first (a wrong one is one line, exit 2, before any process
 * starts); removes the job directories of dead jobs under {@code BASE} ({@link World#removeStale}, one line naming
 * them); starts {@code N} child JVMs with this JVM's binary, flags ({@code --add-exports}...) and class path, each
 * running {@code COMMAND ARGS} as one rank of the job directory {@code BASE/overlap-<pid>-<random>}, the world given
 * in its environment ({@link LaunchedWorld}); then waits for them.
 *
 * <p><b>Output.</b> Rank 0 has the launcher's standard input, output and error: its report (or its {@code --output -}
 * answer, binary included) and its progress bars come out as from a run in one process. The other ranks' output goes
 * to standard error, each line prefixed {@code [rank r] } (one status line each when all goes well). The launcher's
 * own notes go to standard error ({@code --quiet} leaves them out).
 *
 * <p><b>Failures.</b> The exit code is 0 when every rank exits 0, otherwise the first failing rank's (a killed rank's
 * is {@code 128 + signal}; among ranks found exited in the same poll, a killed one is taken as the first, since the
 * others exit 1 because of it). Once a rank failed, the others notice within the peer timeout and exit 1 naming it; the
 * launcher waits for them at most {@link #straggleMillis} (the peer timeout, the ranks' grace period of
 * {@value LaunchedWorld#GRACE_FACTOR} peer timeouts, and a margin), then kills what still runs. It removes the job
 * directory if no rank did, also when it is itself interrupted or terminated (a shutdown hook kills the children
 * first).
 *
 * <p>Not thread-safe: one invocation per instance.
 */
@Command(name = "launch", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Runs a command in N processes on this host with one mesh across them (shared memory): bfs, pr, "
        + "sssp (--mode bsp or async) or jacobi; --devices is the total, split among the processes. Rank 0 prints the "
        + "report and writes --output; the others' lines come prefixed [rank r] on standard error. Exit code: 0, or "
        + "the first failing rank's.",
    footer = {"", "Each process gets its rank in the environment: " + LaunchedWorld.DIR_ENV + ", "
        + LaunchedWorld.RANKS_ENV + ", " + LaunchedWorld.RANK_ENV + ", " + LaunchedWorld.PEER_TIMEOUT_ENV + ", "
        + LaunchedWorld.JOIN_TIMEOUT_ENV + " (set them yourself to start ranks by hand).",
        "Example: overlap launch --processes 2 bfs --generate kron:20 --mode bsp"})
public final class LaunchCommand implements java.util.concurrent.Callable<Integer> {
    /** The commands that run across processes, for messages. */
    static final String COMMANDS = "bfs, pr, sssp or jacobi";
    /** Most processes: every process needs a device, and a mesh has at most 64. */
    static final int MAX_PROCESSES = 64;
    /** Added to the wait for the other ranks once one failed, for exiting JVMs. */
    private static final long MARGIN_MILLIS = 5_000;
    /** How long the shutdown hook lets a child exit after SIGTERM before it kills it. */
    private static final long TERM_MILLIS = 2_000;
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)?");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-n", "--processes"}, paramLabel = "N", required = true, description = "processes (ranks), "
        + "1.." + MAX_PROCESSES)
    int processes;

    @Option(names = "--dir", paramLabel = "BASE", description = "where the job directory goes (default: /dev/shm "
        + "when it exists, else the temporary directory); dead jobs' directories there are removed first")
    Path base;

    @Option(names = "--peer-timeout", paramLabel = "DURATION", defaultValue = "5s", description = "a process that "
        + "stops answering counts as failed after this (one that exits is noticed within a tenth of it): 100ms..10m "
        + "(default: ${DEFAULT-VALUE})")
    String peerTimeout;

    @Option(names = "--join-timeout", paramLabel = "DURATION", defaultValue = "60s", description = "how long the "
        + "processes wait for each other to start, graph loading included: 1ms..1h (default: ${DEFAULT-VALUE})")
    String joinTimeout;

    @Option(names = {"-q", "--quiet"}, description = "leave out the launcher's own notes (removed directories, "
        + "started processes, failures)")
    boolean quiet;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "the command and its arguments, as for one "
        + "process: " + COMMANDS)
    List<String> command;

    @Override
    public Integer call() throws IOException, InterruptedException {
        final CommandLine cl = spec.commandLine();
        final PrintWriter err = cl.getErr();
        if (processes < 1 || processes > MAX_PROCESSES) {
            throw new CommandLine.ParameterException(cl, "--processes must be in 1.." + MAX_PROCESSES + ", was "
                + processes);
        }
        final long peerMillis = millis(cl, "--peer-timeout", peerTimeout, 100, TimeUnit.MINUTES.toMillis(10));
        final long joinMillis = millis(cl, "--join-timeout", joinTimeout, 1, TimeUnit.HOURS.toMillis(1));
        final Path dirBase = base != null ? base : defaultBase();
        if (!Files.isDirectory(dirBase)) {
            throw new CommandLine.ParameterException(cl, "--dir " + dirBase + " is not a directory");
        }
        final Integer invalid = checkCommand(cl);
        if (invalid != null) {
            return invalid;
        }
        final List<Path> stale = World.removeStale(dirBase);
        if (!stale.isEmpty() && !quiet) {
            note(err, "removed " + stale.size() + " stale job director" + (stale.size() == 1 ? "y" : "ies")
                + " of dead jobs: " + String.join(", ", stale.stream().map(Path::toString).toList()));
        }
        final Path job = dirBase.resolve("overlap-" + ProcessHandle.current().pid() + "-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFFFFFFFFL));
        return new Job(err, job, peerMillis, joinMillis).run();
    }

    /**
     * Parses and checks the command as its ranks will.
     *
     * @return null when it may start; otherwise the exit code of what was printed (0 for its help or version)
     */
    private Integer checkCommand(final CommandLine cl) {
        final CommandLine child = OverlapCommand.commandLine();
        child.setOut(cl.getOut());
        child.setErr(cl.getErr());
        try {
            final CommandLine.ParseResult parsed = child.parseArgs(command.toArray(new String[0]));
            if (CommandLine.printHelpIfRequested(parsed)) {
                return 0;
            }
            if (!parsed.hasSubcommand()) {
                throw new CommandLine.ParameterException(cl, "missing command: " + COMMANDS);
            }
            final CommandLine.ParseResult sub = parsed.subcommand();
            final Object target = sub.commandSpec().userObject();
            if (!(target instanceof RunsAcrossProcesses)) {
                throw new CommandLine.ParameterException(cl, "'" + sub.commandSpec().name() + "' does not run across "
                    + "processes: launch runs " + COMMANDS);
            }
            ((RunsAcrossProcesses)target).checkAcrossProcesses(sub.commandSpec().commandLine(), processes);
            return null;
        } catch (final CommandLine.ParameterException e) {
            if (e.getCommandLine() == cl) {
                throw e;
            }
            return new UsageErrors().handleParseException(e, command.toArray(new String[0]));
        }
    }

    /** @return {@code /dev/shm} when it is a directory (memory, so the devices' files never touch a disk), else tmp */
    static Path defaultBase() {
        final Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * @param text {@code N} (seconds), {@code Nms}, {@code Ns} or {@code Nm}
     * @return milliseconds
     * @throws CommandLine.ParameterException naming the option when malformed or outside {@code min..max}
     */
    static long millis(final CommandLine cl, final String option, final String text, final long min, final long max) {
        final Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new CommandLine.ParameterException(cl, option + " must be a duration such as 500ms, 5s or 2m, was '"
                + text + "'");
        }
        final long n = Long.parseLong(m.group(1));
        final String unit = m.group(2) == null ? "s" : m.group(2);
        final long ms = unit.equals("ms") ? n : unit.equals("s") ? n * 1000 : n * 60_000;
        if (ms < min || ms > max) {
            throw new CommandLine.ParameterException(cl, option + " must be in " + min + "ms.." + max / 1000 + "s, was "
                + text);
        }
        return ms;
    }

    /**
     * @param peerMillis the peer timeout
     * @return how long the launcher waits for the other ranks once one failed: they notice within the peer timeout,
     *         get {@value LaunchedWorld#GRACE_FACTOR} peer timeouts to exit before they halt, plus a margin
     */
    static long straggleMillis(final long peerMillis) {
        return peerMillis * (1 + LaunchedWorld.GRACE_FACTOR) + MARGIN_MILLIS;
    }

    private static void note(final PrintWriter err, final String line) {
        synchronized (err) {
            err.println("overlap launch: " + line);
            err.flush();
        }
    }

    /** @return the JVM command that runs {@code OverlapCommand} as this JVM runs (binary, flags, class path) */
    static List<String> javaCommand() {
        final List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // a debugger agent would make every child listen on the same port
            if (!arg.startsWith("-agentlib:jdwp") && !arg.startsWith("-Xrunjdwp") && !arg.equals("-Xdebug")) {
                cmd.add(arg);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(OverlapCommand.class.getName());
        return cmd;
    }

    /** One job: its processes, their output, the wait and the cleanup. */
    private final class Job {
        private final PrintWriter err;
        private final Path dir;
        private final long peerMillis;
        private final long joinMillis;
        /** Written by the main thread as it starts them, read by the shutdown hook too. */
        private final List<Process> children = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final List<Thread> forwarders = new ArrayList<>();
        private final Thread hook;

        Job(final PrintWriter err, final Path dir, final long peerMillis, final long joinMillis) {
            this.err = err;
            this.dir = dir;
            this.peerMillis = peerMillis;
            this.joinMillis = joinMillis;
            this.hook = new Thread(this::terminate, "overlap-launch-shutdown");
        }

        int run() throws IOException, InterruptedException {
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                start();
                if (!quiet) {
                    final StringBuilder pids = new StringBuilder();
                    for (final Process p : children) {
                        pids.append(pids.length() == 0 ? "" : " ").append(p.pid());
                    }
                    note(err, processes + " process" + (processes == 1 ? "" : "es") + " (ranks 0.." + (processes - 1)
                        + ": pids " + pids + "), job directory " + dir);
                }
                return await();
            } finally {
                terminate();
                for (final Thread t : forwarders) {
                    t.join(TimeUnit.SECONDS.toMillis(5)); // the last lines of the children's output
                }
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (final IllegalStateException shuttingDown) {
                    // the hook runs or ran: it did the same
                }
            }
        }

        private void start() throws IOException {
            final List<String> cmd = javaCommand();
            cmd.addAll(command);
            for (int r = 0; r < processes; r++) {
                final ProcessBuilder pb = new ProcessBuilder(cmd);
                final Map<String, String> env = pb.environment();
                env.put(LaunchedWorld.DIR_ENV, dir.toString());
                env.put(LaunchedWorld.RANKS_ENV, Integer.toString(processes));
                env.put(LaunchedWorld.RANK_ENV, Integer.toString(r));
                env.put(LaunchedWorld.PEER_TIMEOUT_ENV, Long.toString(peerMillis));
                env.put(LaunchedWorld.JOIN_TIMEOUT_ENV, Long.toString(joinMillis));
                if (r == 0) {
                    pb.inheritIO();
                } else {
                    pb.redirectErrorStream(true);
                }
                final Process p = pb.start();
                children.add(p);
                if (r != 0) {
                    p.getOutputStream().close(); // no input for the others: rank 0 has the launcher's
                    forwarders.add(forward(p, r));
                }
            }
        }

        /** @return the started thread that copies rank {@code r}'s output lines to standard error, prefixed */
        private Thread forward(final Process p, final int r) {
            final Thread t = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        synchronized (err) {
                            err.println("[rank " + r + "] " + line);
                            err.flush();
                        }
                    }
                } catch (final IOException e) {
                    // the process is gone; what it printed last is lost with it
                }
            }, "overlap-launch-rank-" + r);
            t.setDaemon(true);
            t.start();
            return t;
        }

        /** Waits for every rank; after the first failure at most the straggler bound, then kills the rest. */
        private int await() throws InterruptedException {
            final boolean[] done = new boolean[processes];
            int left = processes;
            int failedRank = -1;
            int failedCode = 0;
            long stopBy = 0;
            while (left > 0) {
                // ranks found exited in one scan exited within one poll of each other: a rank killed by a signal
                // among them is the cause (the others exit 1 naming it), whatever its place in the scan
                int scanRank = -1;
                int scanCode = 0;
                for (int r = 0; r < processes; r++) {
                    final Process p = children.get(r);
                    if (!done[r] && !p.isAlive()) {
                        done[r] = true;
                        left--;
                        final int code = p.exitValue();
                        if (code != 0 && failedRank < 0 && (scanRank < 0 || code > 128 && scanCode <= 128)) {
                            scanRank = r;
                            scanCode = code;
                        }
                    }
                }
                if (scanRank >= 0) {
                    failedRank = scanRank;
                    failedCode = scanCode;
                    stopBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(straggleMillis(peerMillis));
                    if (!quiet) {
                        note(err, "rank " + scanRank + " (pid " + children.get(scanRank).pid() + ") exited with code "
                            + scanCode + (scanCode > 128 ? " (killed by signal " + (scanCode - 128) + ")" : "")
                            + (left > 0 ? "; waiting at most " + straggleMillis(peerMillis) / 1000
                                + " s for the others" : ""));
                    }
                }
                if (left == 0) {
                    break;
                }
                if (failedRank >= 0 && System.nanoTime() - stopBy >= 0) {
                    for (int r = 0; r < processes; r++) {
                        if (!done[r] && !quiet) {
                            note(err, "rank " + r + " (pid " + children.get(r).pid() + ") still runs: killing it");
                        }
                    }
                    break; // terminate() kills them
                }
                for (int r = 0; r < processes; r++) {
                    if (!done[r]) {
                        children.get(r).waitFor(20, TimeUnit.MILLISECONDS); // a bounded wait on a child, not a sleep
                        break;
                    }
                }
            }
            if (failedRank >= 0 && !quiet) {
                final StringBuilder codes = new StringBuilder();
                for (int r = 0; r < processes; r++) {
                    codes.append(r == 0 ? "" : ", ").append("rank ").append(r).append(' ')
                        .append(done[r] ? Integer.toString(children.get(r).exitValue()) : "killed");
                }
                note(err, "exit codes: " + codes + "; rank " + failedRank + " failed first");
            }
            return failedRank >= 0 ? failedCode : 0;
        }

        /**
         * Kills whatever child still runs (politely first) and removes the job directory: idempotent. Synchronized
         * because the shutdown hook and the main thread's {@code finally} both call it on a SIGTERM: the JVM halts as
         * soon as the hook returns, so the hook must not return while the main thread's call is half-way through the
         * directory (the hook's own walk then gives up on the entries the other call removed, and the rest stays
         * behind); it waits for that call and then finds nothing left to do.
         */
        private synchronized void terminate() {
            for (final Process p : children) {
                if (p.isAlive()) {
                    p.destroy();
                }
            }
            for (final Process p : children) {
                try {
                    if (!p.waitFor(TERM_MILLIS, TimeUnit.MILLISECONDS)) {
                        p.destroyForcibly().waitFor(TERM_MILLIS, TimeUnit.MILLISECONDS);
                    }
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    p.destroyForcibly();
                }
            }
            World.deleteDirectory(dir);
        }
    }
}
