package dev.overlap.graph.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What {@code overlap -V} prints: the Maven project version the jar was built from (written into
 * {@value #RESOURCE} by resource filtering at build time, so it can never drift from the POM) and the Java runtime.
 *
 * <p>Stateless; thread-safe.
 */
final class BuildVersion implements CommandLine.IVersionProvider {
    /** The filtered resource holding {@code version=${project.version}}. */
    static final String RESOURCE = "/dev/overlap/graph/cli/build.properties";

    @Override
    public String[] getVersion() {
        return new String[] {"overlap " + version(), "Java " + System.getProperty("java.version") + " ("
            + System.getProperty("java.vm.name") + ", " + System.getProperty("java.vendor") + ")"};
    }

    /** @return the project version of the build, or a note when the classes were not built by Maven */
    static String version() {
        final Properties p = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + " from the jar", e);
        }
        final String v = p.getProperty("version");
        return v == null || v.isEmpty() || v.contains("${") ? "(version unknown: not built by Maven)" : v;
    }
}
