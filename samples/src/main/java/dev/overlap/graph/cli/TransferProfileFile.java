package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.replication.TransferConfig;
import dev.overlap.replication.TransferMode;
import dev.overlap.replication.TransferProfile;
import dev.overlap.replication.TransferProfile.Point;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link TransferProfile} stored as a small JSON file: later runs {@link #load} it; a missing or corrupt profile
 * falls back to a default configuration with a warning naming the file and the problem, never an exception.
 */
public final class TransferProfileFile {
    static final int FORMAT = 1;
    private static final System.Logger LOG = System.getLogger(TransferProfileFile.class.getName());

    private TransferProfileFile() {
    }

    /** Writes {@code profile} as JSON, replacing {@code file} (atomically: a reader sees the old or the new one). */
    public static void write(final TransferProfile profile, final Path file) throws IOException {
        final Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("workload", profile.workload());
        root.put("machine", profile.machine());
        root.put("choice", configMap(profile.choice()));
        final List<Object> list = new ArrayList<>();
        for (final Point p : profile.points()) {
            final Map<String, Object> m = configMap(p.config());
            m.put("medianNanos", p.medianNanos());
            list.add(m);
        }
        root.put("points", list);
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(root) + "\n");
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
    }

    private static Map<String, Object> configMap(final TransferConfig c) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", c.mode().name());
        m.put("chunkBytes", c.chunkBytes());
        m.put("transferThreads", c.transferThreads());
        return m;
    }

    /**
     * Reads a profile.
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file and what is wrong if it is not a valid profile
     */
    public static TransferProfile read(final Path file) throws IOException {
        final String text = Files.readString(file);
        final Map<String, Object> root;
        try {
            root = JSON.std.mapFrom(text);
        } catch (final IOException | RuntimeException e) {
            throw new IllegalArgumentException(file + ": not valid JSON (" + firstLine(e.getMessage()) + ")");
        }
        try {
            if (!Integer.valueOf(FORMAT).equals(root.get("format"))) {
                throw new IllegalArgumentException("unsupported format " + root.get("format") + " (expected " + FORMAT
                    + ")");
            }
            final TransferConfig choice = config(root.get("choice"), "choice");
            final List<Point> points = new ArrayList<>();
            final Object list = root.get("points");
            if (!(list instanceof List)) {
                throw new IllegalArgumentException("'points' must be a list");
            }
            int i = 0;
            for (final Object o : (List<?>)list) {
                final String where = "points[" + i++ + "]";
                points.add(new Point(config(o, where), number(((Map<?, ?>)o).get("medianNanos"), where + ".medianNanos")));
            }
            return new TransferProfile(text(root.get("workload"), "workload"), text(root.get("machine"), "machine"),
                choice, points);
        } catch (final IllegalArgumentException | ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException(file + ": not a transfer profile: " + e.getMessage());
        }
    }

    /**
     * Loads the profile of {@code workload} from {@code file}, or falls back: when the file is missing, corrupt, or
     * for another workload, logs a warning saying which and returns {@code fallback}.
     *
     * @return the profile's choice, or {@code fallback}
     */
    public static TransferConfig load(final Path file, final String workload, final TransferConfig fallback) {
        try {
            final TransferProfile p = read(file);
            if (!p.workload().equals(workload)) {
                LOG.log(Level.WARNING, "transfer profile {0} is for workload ''{1}'', not ''{2}'': using {3}", file,
                    p.workload(), workload, fallback);
                return fallback;
            }
            return p.choice();
        } catch (final NoSuchFileException e) {
            LOG.log(Level.WARNING, "no transfer profile at {0}: using {1} (run the profiler to choose)", file, fallback);
        } catch (final IOException | IllegalArgumentException e) {
            LOG.log(Level.WARNING, "ignoring transfer profile {0}: {1}; using {2}", file, e.getMessage(), fallback);
        }
        return fallback;
    }

    private static TransferConfig config(final Object o, final String where) {
        if (!(o instanceof Map)) {
            throw new IllegalArgumentException("'" + where + "' must be an object");
        }
        final Map<?, ?> m = (Map<?, ?>)o;
        final String mode = text(m.get("mode"), where + ".mode");
        final TransferMode parsed;
        try {
            parsed = TransferMode.valueOf(mode);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + where + ".mode' is '" + mode + "', not a transfer mode");
        }
        return new TransferConfig(parsed, (int)number(m.get("chunkBytes"), where + ".chunkBytes"),
            (int)number(m.get("transferThreads"), where + ".transferThreads"));
    }

    private static String text(final Object o, final String where) {
        if (!(o instanceof String)) {
            throw new IllegalArgumentException("'" + where + "' must be a string");
        }
        return (String)o;
    }

    private static long number(final Object o, final String where) {
        if (!(o instanceof Number)) {
            throw new IllegalArgumentException("'" + where + "' must be a number");
        }
        return ((Number)o).longValue();
    }

    private static String firstLine(final String s) {
        if (s == null) {
            return "unreadable";
        }
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
