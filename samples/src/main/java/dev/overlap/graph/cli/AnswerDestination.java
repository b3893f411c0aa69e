package dev.overlap.graph.cli;

import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.answer.AnswerFormat;
import dev.overlap.graph.answer.AnswerWriter;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The file an answer goes to, opened before the run so that a path that cannot be written fails at once, and
 * written after it. Every failure is a {@link FileSystemException} naming the path as the user gave it, so
 * {@link CliErrors} reports it in one line ({@code /sys/x: cannot create the --output file: permission denied},
 * {@code /dev/full: cannot write the answer: no space left on device}).
 *
 * <ul>
 *   <li>A new file or a regular file is written to a temporary file beside it (created with the default
 *   permissions) and moved into place atomically once complete: a failed or interrupted run leaves the old file as
 *   it was and no partial answer; {@link #close()} deletes the temporary file if the answer never came.</li>
 *   <li>Anything else (a device such as {@code /dev/null}, a FIFO, a symbolic link) is opened and written in place,
 *   as a shell redirection would.</li>
 *   <li>{@value #STDOUT} is standard output, flushed and left open.</li>
 * </ul>
 *
 * <p>Not thread-safe: used by one command invocation.
 */
final class AnswerDestination implements AutoCloseable {
    /** The name of standard output on the command line. */
    static final String STDOUT = "-";

    private final String name;
    private final Path target;
    private final Path temp;
    private final OutputStream out;
    private final boolean ownsStream;
    private boolean done;

    private AnswerDestination(final String name, final Path target, final Path temp, final OutputStream out,
        final boolean ownsStream) {
        this.name = name;
        this.target = target;
        this.temp = temp;
        this.out = out;
        this.ownsStream = ownsStream;
    }

    /**
     * @param spec the {@code --output} value: a path, or {@value #STDOUT}
     * @return the open destination
     * @throws FileSystemException naming {@code spec} when it is a directory, its directory is missing, or it cannot
     *                             be created or opened for writing
     * @throws java.nio.file.InvalidPathException when {@code spec} is not a path
     */
    static AnswerDestination open(final String spec) throws IOException {
        if (STDOUT.equals(spec)) {
            return new AnswerDestination("standard output", null, null, new FileOutputStream(FileDescriptor.out), false);
        }
        final Path p = Path.of(spec);
        if (Files.isDirectory(p)) {
            throw new FileSystemException(spec, null, "is a directory, not a file for the answer");
        }
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            try {
                return new AnswerDestination(spec, null, null, Files.newOutputStream(p), true);
            } catch (final IOException e) {
                throw failure(spec, "cannot open the --output file", e);
            }
        }
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isWritable(p)) {
            throw new AccessDeniedException(spec, null, "permission denied: the file is read-only");
        }
        final Path dir = p.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            if (dir != null && Files.exists(dir)) {
                throw new FileSystemException(spec, null, dir + " is not a directory");
            }
            throw new NoSuchFileException(spec, null, "no such directory " + dir);
        }
        final Path temp = createTemp(spec, dir, p.getFileName().toString());
        temp.toFile().deleteOnExit();
        try {
            return new AnswerDestination(spec, p, temp, Files.newOutputStream(temp), true);
        } catch (final IOException e) {
            Files.deleteIfExists(temp);
            throw failure(spec, "cannot create the --output file", e);
        }
    }

    private static Path createTemp(final String spec, final Path dir, final String file) throws FileSystemException {
        for (int attempt = 0;; attempt++) {
            final Path t = dir.resolve("." + file + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".tmp");
            try {
                // createFile, not createTempFile: the answer gets the umask's permissions, not 0600
                return Files.createFile(t);
            } catch (final FileAlreadyExistsException e) {
                if (attempt == 8) {
                    throw failure(spec, "cannot create the --output file", e);
                }
            } catch (final IOException e) {
                throw failure(spec, "cannot create the --output file", e);
            }
        }
    }

    /** @return the destination as the user named it ({@code standard output} for {@value #STDOUT}) */
    String name() {
        return name;
    }

    /**
     * Writes the answer and puts it in place.
     *
     * @param answer the answer
     * @param format text or binary
     * @throws FileSystemException naming the destination when writing or moving it into place fails
     * @throws IllegalStateException when an answer was written already
     */
    void write(final Answer answer, final AnswerFormat format) throws IOException {
        if (done) {
            throw new IllegalStateException(name + ": the answer was already written");
        }
        done = true;
        try {
            AnswerWriter.write(answer, format, out);
            if (ownsStream) {
                out.close();
            }
            if (temp != null) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (final IOException e) {
            throw failure(name, "cannot write the answer", e);
        } finally {
            closeQuietly();
        }
    }

    /** Closes the file and deletes the temporary file of an answer that was never put in place. */
    @Override
    public void close() throws IOException {
        closeQuietly();
        if (temp != null) {
            Files.deleteIfExists(temp);
        }
    }

    private void closeQuietly() {
        if (!ownsStream) {
            return;
        }
        try {
            out.close();
        } catch (final IOException e) {
            // a write's own failure is the one reported; a closed stream closes again silently
        }
    }

    private static FileSystemException failure(final String file, final String what, final IOException cause) {
        return (FileSystemException)new FileSystemException(file, null, what + ": " + CliErrors.reason(cause))
            .initCause(cause);
    }
}
