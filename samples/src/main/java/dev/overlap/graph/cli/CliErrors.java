package dev.overlap.graph.cli;

import dev.overlap.core.PeerFailedException;
import dev.overlap.graph.io.GraphFormatException;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the command-line tools report a failure: one line on standard error, {@code <command>: <what went wrong>},
 * and exit code 1, whatever failed (a bad file, a full heap or direct memory, a failed kernel, a bug), never a stack
 * trace. Wrong arguments are {@link UsageErrors}' business (one line too, exit code 2).
 *
 * <p>An {@link OutOfMemoryError} anywhere in the cause chain names what ran out, the heap or direct memory (where
 * device memory lives), with the setting that raises it, as {@code OVERLAP_JAVA_OPTS=-Xmx4g}. File problems name the
 * path. A process of a run across processes whose peer failed says which rank ({@code rank R failed: ...}).
 * Anything unexpected is reported as an internal error in one line; {@code OVERLAP_STACKTRACE=1} adds the
 * stack trace for a bug report.
 *
 * <p>Used by {@code overlap} ({@link OverlapCommand}) and {@code overlap bench-graphs}: {@link #handler()} for
 * exceptions of a running command, {@link #report} for errors that picocli does not catch (it lets {@code Error}s
 * through), {@link #exitOnUncaught} for threads that die of an uncaught throwable.
 */
public final class CliErrors {
    /** Exit code of a runtime failure. */
    public static final int FAILURE = 1;

    /** Environment variable that adds the stack trace after the one-line message. */
    public static final String STACKTRACE_ENV = "OVERLAP_STACKTRACE";

    private static final Pattern RESERVE = Pattern.compile("Cannot reserve (\\d+) bytes of direct buffer memory "
        + "\\(allocated: (\\d+), limit: (\\d+)\\)");

    /**
     * Heap held back for reporting an {@link OutOfMemoryError}: released before the message is built, so that
     * building it (a few strings, the management beans) does not run out itself.
     */
    private static volatile byte[] reserve = new byte[1 << 20];

    private CliErrors() {
    }

    /** @return the execution exception handler of a command line: {@link #report} and exit code 1 */
    public static CommandLine.IExecutionExceptionHandler handler() {
        return (ex, commandLine, parseResult) -> report(commandLine.getErr(), commandLine.getCommandSpec()
            .qualifiedName(), ex);
    }

    /**
     * Prints {@code command: description} as one line (and the stack trace when {@value #STACKTRACE_ENV} is set).
     *
     * @param err     where to print
     * @param command the command's name, as {@code overlap bfs}
     * @param failure what went wrong
     * @return {@link #FAILURE}
     */
    public static int report(final PrintWriter err, final String command, final Throwable failure) {
        String line;
        try {
            line = command + ": " + describe(failure);
        } catch (final Throwable t) {
            line = command + ": " + fallback(failure);
        }
        err.println(line);
        if (System.getenv(STACKTRACE_ENV) != null && !System.getenv(STACKTRACE_ENV).isEmpty()) {
            failure.printStackTrace(err);
        }
        err.flush();
        return FAILURE;
    }

    /**
     * Makes a thread that dies of an uncaught throwable (a library thread's bug, an {@link OutOfMemoryError} in a
     * progress or transfer thread) end the process like a failed command: one line, then {@code exit(1)}, instead of
     * a stack trace and a main thread that may wait for it forever.
     *
     * @param err     where to print
     * @param command supplies the command's name when it happens
     * @param exit    ends the process ({@code System::exit} outside tests)
     * @return the handler, installed as the default for every thread
     */
    public static Thread.UncaughtExceptionHandler exitOnUncaught(final PrintWriter err, final Supplier<String> command,
        final IntConsumer exit) {
        final Thread.UncaughtExceptionHandler h = (thread, failure) -> {
            String name;
            try {
                name = command.get();
            } catch (final RuntimeException e) {
                name = "overlap";
            }
            report(err, name + " (thread " + thread.getName() + ")", failure);
            exit.accept(FAILURE);
        };
        Thread.setDefaultUncaughtExceptionHandler(h);
        return h;
    }

    /**
     * Creates an output directory before any work is done, so that a bad one fails at once.
     *
     * @param dir    the directory (created with its parents when missing)
     * @param option the option that named it, for the message
     * @throws FileSystemException naming {@code dir}, the option and why it cannot be created
     */
    public static void createOutputDirectory(final Path dir, final String option) throws FileSystemException {
        try {
            Files.createDirectories(dir);
        } catch (final FileSystemException e) {
            final String why = dir.toString().equals(e.getFile()) ? fileSystem(e).substring(dir.toString().length() + 2)
                : fileSystem(e);
            throw (FileSystemException)new FileSystemException(dir.toString(), null, "cannot create the " + option
                + " directory: " + why).initCause(e);
        } catch (final IOException e) {
            throw (FileSystemException)new FileSystemException(dir.toString(), null, "cannot create the " + option
                + " directory: " + messageOrName(e)).initCause(e);
        }
    }

    /**
     * @param failure what went wrong
     * @return one line that says it without a stack trace: what ran out for an {@link OutOfMemoryError} anywhere in
     * the cause chain, the path for file problems, the message for the library's documented exceptions
     */
    public static String describe(final Throwable failure) {
        final OutOfMemoryError oom = find(failure, OutOfMemoryError.class);
        if (oom != null) {
            reserve = null;
            return outOfMemory(oom);
        }
        final PeerFailedException peer = find(failure, PeerFailedException.class);
        if (peer != null) {
            return oneLine(peer.getMessage()); // "rank R failed: why", wherever it surfaced (a kernel, a close)
        }
        return oneLine(describeOther(failure));
    }

    private static String describeOther(final Throwable t) {
        if (t instanceof GraphFormatException) {
            return t.getMessage();
        }
        if (t instanceof UncheckedIOException && t.getCause() != null) {
            return describeOther(t.getCause());
        }
        if (t instanceof FileSystemException) {
            return fileSystem((FileSystemException)t);
        }
        if (t instanceof IOException) {
            return "I/O error: " + messageOrName(t);
        }
        if (t instanceof CommandLine.ExecutionException && t.getCause() != null && t.getCause() != t) {
            return describeOther(t.getCause());
        }
        if (t instanceof IllegalStateException || t instanceof IllegalArgumentException
            || t instanceof UnsupportedOperationException) {
            final FileSystemException io = find(t, FileSystemException.class);
            return t.getMessage() != null ? t.getMessage() + (io != null && !t.getMessage().contains(io.getFile())
                ? " (" + fileSystem(io) + ")" : "") : internal(t);
        }
        if (t instanceof StackOverflowError) {
            return "stack overflow: raise the thread stack size, e.g. OVERLAP_JAVA_OPTS=-Xss16m";
        }
        final Throwable cause = t.getCause();
        if (t instanceof RuntimeException && t.getMessage() != null && cause != null && cause != t
            && t.getClass().getName().startsWith("dev.overlap.")) {
            // the library's own wrappers (a failed kernel launch...): their message says where, the cause what
            return t.getMessage() + (t.getMessage().contains(String.valueOf(cause.getMessage())) ? ""
                : ": " + describeOther(cause));
        }
        return internal(t);
    }

    private static String internal(final Throwable t) {
        return "internal error: " + t + (t.getStackTrace().length > 0 ? " at " + t.getStackTrace()[0] : "")
            + " (" + STACKTRACE_ENV + "=1 prints the stack trace)";
    }

    private static String fileSystem(final FileSystemException e) {
        final String file = e.getFile() != null ? e.getFile() : "?";
        return file + (e.getOtherFile() != null ? " -> " + e.getOtherFile() : "") + ": " + reason(e);
    }

    /**
     * @param e an I/O failure
     * @return what went wrong without the file, starting in lower case: {@code permission denied},
     * {@code no space left on device}
     */
    static String reason(final IOException e) {
        if (!(e instanceof FileSystemException)) {
            return lowerFirst(messageOrName(e));
        }
        final String what;
        final FileSystemException f = (FileSystemException)e;
        if (f.getReason() != null && !f.getReason().isEmpty()) {
            what = lowerFirst(f.getReason());
        } else if (e instanceof NoSuchFileException) {
            what = "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            what = "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            what = "already exists";
        } else if (e instanceof NotDirectoryException) {
            what = "not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            what = "directory not empty";
        } else {
            what = "file system error (" + e.getClass().getSimpleName() + ")";
        }
        return what;
    }

    private static String outOfMemory(final OutOfMemoryError e) {
        final String m = e.getMessage() == null ? "" : e.getMessage();
        if (m.contains("direct buffer memory")) {
            final Matcher r = RESERVE.matcher(m);
            final boolean parsed = r.find();
            final long limit = parsed ? Long.parseLong(r.group(3)) : maxDirectMemory();
            final String detail = parsed ? "could not reserve " + bytes(Long.parseLong(r.group(1))) + " more with "
                + bytes(Long.parseLong(r.group(2))) + " in use, limit " + bytes(limit) : m;
            // enough for twice what was asked (the next device wants as much again), and at least twice the limit
            final long wanted = parsed ? 2 * (Long.parseLong(r.group(1)) + Long.parseLong(r.group(2))) : 0;
            return "out of direct memory, where device memory lives (" + detail + "): raise the limit, e.g. "
                + "OVERLAP_JAVA_OPTS=-XX:MaxDirectMemorySize=" + suggestion(Math.max(limit, wanted / 2))
                + " (without it the limit is the maximum heap, -Xmx)" + physical();
        }
        if (m.contains("Java heap space") || m.contains("GC overhead limit") || m.contains("Requested array size")) {
            final long max = Runtime.getRuntime().maxMemory();
            return "out of heap memory (" + m + "; maximum heap " + bytes(max) + "): raise it, e.g. "
                + "OVERLAP_JAVA_OPTS=-Xmx" + suggestion(max) + physical();
        }
        if (m.contains("Metaspace")) {
            return "out of metaspace: raise it, e.g. OVERLAP_JAVA_OPTS=-XX:MaxMetaspaceSize=1g";
        }
        if (m.contains("native thread")) {
            return "the system refused another thread (" + m + "): use fewer --devices or --threads-per-device";
        }
        return "out of memory (" + (m.isEmpty() ? "no detail" : m) + "): raise the heap, e.g. OVERLAP_JAVA_OPTS=-Xmx"
            + suggestion(Runtime.getRuntime().maxMemory()) + physical();
    }

    /** @return a setting worth trying: twice the current limit, at least 1 GiB, in whole GiB */
    private static String suggestion(final long current) {
        final long gib = 1L << 30;
        final long want = Math.max(gib, current > Long.MAX_VALUE / 4 ? current : 2 * current);
        return ((want + gib - 1) / gib) + "g";
    }

    /** @return "; this machine has N GiB of memory", or nothing when the JVM cannot tell */
    private static String physical() {
        try {
            final java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean) {
                final long total = ((com.sun.management.OperatingSystemMXBean)os).getTotalMemorySize();
                if (total > 0) {
                    return "; this machine has " + bytes(total) + " of memory";
                }
            }
        } catch (final RuntimeException | LinkageError e) {
            // no figure then
        }
        return "";
    }

    private static long maxDirectMemory() {
        try {
            final com.sun.management.HotSpotDiagnosticMXBean hs = ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class);
            final long v = Long.parseLong(hs.getVMOption("MaxDirectMemorySize").getValue());
            return v > 0 ? v : Runtime.getRuntime().maxMemory();
        } catch (final RuntimeException | LinkageError e) {
            return Runtime.getRuntime().maxMemory();
        }
    }

    static String bytes(final long b) {
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", b / (double)(1L << 30));
        }
        if (b >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (double)(1L << 20));
        }
        if (b >= 1L << 10) {
            return String.format(Locale.ROOT, "%.1f KiB", b / (double)(1L << 10));
        }
        return b + " bytes";
    }

    private static String fallback(final Throwable failure) {
        return failure instanceof OutOfMemoryError || find(failure, OutOfMemoryError.class) != null
            ? "out of memory: raise the heap (OVERLAP_JAVA_OPTS=-Xmx...) or direct memory "
                + "(OVERLAP_JAVA_OPTS=-XX:MaxDirectMemorySize=...)"
            : "failed: " + failure.getClass().getName();
    }

    private static <T extends Throwable> T find(final Throwable failure, final Class<T> type) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 32; depth++) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            for (final Throwable s : t.getSuppressed()) {
                if (type.isInstance(s)) {
                    return type.cast(s);
                }
            }
            t = t.getCause() == t ? null : t.getCause();
        }
        return null;
    }

    private static String messageOrName(final Throwable t) {
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    private static String lowerFirst(final String s) {
        return s.isEmpty() || s.length() > 1 && Character.isUpperCase(s.charAt(1)) ? s
            : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /**
     * @return the text on one line: line breaks (a multi-line message) become "; ", and other control characters
     * (a binary file's bytes quoted in a parser's message) become '?', so the line cannot garble the terminal
     */
    static String oneLine(final String s) {
        return s.replaceAll("\\s*\\R\\s*", "; ").trim().replace('\t', ' ').replaceAll("\\p{Cntrl}", "?");
    }
}
