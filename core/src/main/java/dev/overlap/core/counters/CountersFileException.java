package dev.overlap.core.counters;

import java.io.IOException;
import java.nio.file.Path;

/** A counters file that cannot be read; the message starts with the file's path. */
public final class CountersFileException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    CountersFileException(final Path file, final String reason) {
        this(file, reason, null);
    }

    CountersFileException(final Path file, final String reason, final Throwable cause) {
        super(file + ": " + reason, cause);
        this.file = file;
    }

    /** @return the file */
    public Path file() {
        return file;
    }
}
