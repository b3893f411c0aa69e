package dev.overlap.graph;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;

/**
 * Progress bars on a console stream (standard error for the command line), drawn by the {@code progressbar}
 * library's own refresh thread, so stepping a task costs one synchronized counter update. Thread-safe.
 */
public final class ConsoleProgress implements Progress {
    private final PrintStream out;

    /** @param out where the bars are drawn (standard error, so results on standard output stay clean) */
    public ConsoleProgress(final PrintStream out) {
        this.out = out;
    }

    /**
     * @param quiet true to show nothing
     * @return bars on standard error when not quiet and standard error is a terminal; otherwise {@link #none()}
     */
    public static Progress forConsole(final boolean quiet) {
        if (quiet || !stderrIsTerminal()) {
            return Progress.none();
        }
        return new ConsoleProgress(System.err);
    }

    /**
     * @return true when standard error is a terminal: on Linux, when file descriptor 2 links to a tty device (so
     *         bars still show when standard output is redirected to a file); elsewhere, when the JVM has a console
     */
    static boolean stderrIsTerminal() {
        final java.nio.file.Path fd = java.nio.file.Paths.get("/proc/self/fd/2");
        try {
            final String target = java.nio.file.Files.readSymbolicLink(fd).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (final java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    @Override
    public Task start(final String name, final long max, final String unit, final long unitSize) {
        final ProgressBar bar = new ProgressBarBuilder().setTaskName(name).setInitialMax(max > 0 ? max : -1)
            .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).setUnit(" " + unit, Math.max(1, unitSize))
            .setConsumer(new ConsoleProgressBarConsumer(out)).showSpeed().build();
        return new Task() {
            private boolean closed;

            @Override
            public void stepBy(final long n) {
                bar.stepBy(n);
            }

            @Override
            public void stepTo(final long n) {
                bar.stepTo(n);
            }

            @Override
            public synchronized void close() {
                if (!closed) {
                    closed = true;
                    if (max > 0) {
                        bar.stepTo(max);
                    }
                    bar.close();
                }
            }
        };
    }
}
