package dev.overlap.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgronaAccessTest {
    /** Run in a JVM started without the export flag: prints what building a mesh says. */
    public static final class BuildMeshWithoutFlag {
        public static void main(final String[] args) {
            try (Mesh mesh = Mesh.builder().devices(1).threadsPerDevice(1).memoryPerDevice(4096).build()) {
                System.out.println("BUILT " + mesh);
            } catch (final IllegalStateException e) {
                System.out.println("REFUSED " + e.getMessage());
            }
        }
    }

    @Test
    void aMeshWithoutTheExportFlagFailsAtOnceNamingTheFlag() throws IOException, InterruptedException {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process process = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
            BuildMeshWithoutFlag.class.getName())).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("REFUSED") && output.contains(AgronaAccess.FLAG), output);
    }

    @Test
    void withTheFlagAccessIsGranted() {
        AgronaAccess.require();
    }
}
