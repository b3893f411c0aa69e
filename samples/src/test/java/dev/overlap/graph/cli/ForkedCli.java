package dev.overlap.graph.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of {@code OverlapCommand.main} in a forked JVM (the launcher's flags plus the given JVM options): the real
 * process, for what cannot be seen in this one (an {@link OutOfMemoryError} of its own heap, bytes on its standard
 * output). Standard output is kept as a file, so binary answers survive.
 */
final class ForkedCli {
    final int exit;
    final byte[] out;
    final String err;

    ForkedCli(final List<String> jvmOptions, final String... args) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--add-exports");
        cmd.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(OverlapCommand.class.getName());
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove(CliErrors.STACKTRACE_ENV);
        final Path stdout = Files.createTempFile("overlap-cli", ".out");
        final Path stderr = Files.createTempFile("overlap-cli", ".err");
        try {
            final Process p = pb.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("the forked CLI did not finish in 120 s: " + String.join(" ", args));
            }
            exit = p.exitValue();
            out = Files.readAllBytes(stdout);
            err = Files.readString(stderr);
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }

    /** @return standard output as text */
    String outText() {
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }
}
