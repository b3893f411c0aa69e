package dev.overlap.bench.graph;

import dev.overlap.graph.app.GraphApp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * A build of the GAP benchmark suite ({@code github.com/sbeamer/gapbs}, built outside this repository with its own
 * {@code make}) that {@code bench-graphs} runs as its C++ peer: the directory holding the kernels {@code bfs},
 * {@code sssp} and {@code pr}. Found through {@code --gap DIR} or, failing that, the environment variable
 * {@value #ENV}; the project never ships or builds GAP itself. Immutable; thread-safe.
 */
final class GapBuild {
    /** The environment variable naming the directory of a GAP build. */
    static final String ENV = "OVERLAP_GAP_DIR";
    /** How to get one, for the notes. */
    static final String HOW = "git clone https://github.com/sbeamer/gapbs && make -C gapbs, then --gap gapbs or "
        + ENV + "=gapbs; README: bench-graphs";

    private final Path dir;

    private GapBuild(final Path dir) {
        this.dir = dir;
    }

    /**
     * @param option the {@code --gap} directory, or null
     * @param env    the value of {@value #ENV}, or null
     * @param notes  where the one-line reason goes when there is no usable build
     * @return the build, or null (with a note) when none is given or the directory does not exist
     */
    static GapBuild locate(final Path option, final String env, final Set<String> notes) {
        final Path dir = option != null ? option : env != null && !env.isBlank() ? Path.of(env.trim()) : null;
        if (dir == null) {
            notes.add("gap not run: no GAP build given (" + HOW + ")");
            return null;
        }
        final String from = option != null ? "--gap " + option : ENV + "=" + env;
        if (!Files.isDirectory(dir)) {
            notes.add("gap not run: " + from + " is not a directory (" + HOW + ")");
            return null;
        }
        return new GapBuild(dir);
    }

    /** @return the directory */
    Path dir() {
        return dir;
    }

    /** @return the kernel binary of {@code app}: {@code bfs}, {@code sssp} or {@code pr} in the directory */
    Path binary(final GraphApp app) {
        return dir.resolve(app.id());
    }

    /** @return null when the app's binary is there and executable, else the one-line note saying it is skipped */
    String missing(final GraphApp app) {
        final Path b = binary(app);
        return Files.isRegularFile(b) && Files.isExecutable(b) ? null : "gap " + app + " skipped: " + b
            + " is missing or not executable (run make in " + dir + ")";
    }
}
