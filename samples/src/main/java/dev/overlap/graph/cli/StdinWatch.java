package dev.overlap.graph.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Tells when standard input has been closed: a daemon thread reads it to its end (discarding what it reads) and then
 * sets a flag. For {@code --until-stdin-closes}: whoever started the command ends its runs by closing its input.
 * Thread-safety: the flag is an atomic; {@link #start} may be called from any thread.
 */
final class StdinWatch {
    private StdinWatch() {
    }

    /** @return true once standard input reached its end (or failed) */
    static BooleanSupplier start() {
        return start(System.in);
    }

    static BooleanSupplier start(final InputStream in) {
        final AtomicBoolean closed = new AtomicBoolean();
        final Thread t = new Thread(() -> {
            final byte[] sink = new byte[256];
            try {
                while (in.read(sink) >= 0) {
                    Thread.onSpinWait(); // whatever arrives is not for us; the end is
                }
            } catch (final IOException e) {
                // a broken input counts as closed
            }
            closed.set(true);
        }, "overlap-stdin-watch");
        t.setDaemon(true);
        t.start();
        return closed::get;
    }
}
