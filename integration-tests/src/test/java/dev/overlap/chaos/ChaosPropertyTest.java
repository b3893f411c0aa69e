package dev.overlap.chaos;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 15's chaos property: any sequence of public calls (allocate, free, close in any order, launch, join with
 * timeouts, interrupt, offer/poll/fill/drain, transport sends and gets, region and worklist runs, a close racing
 * with use) run in a forked JVM leaves the JVM alive, every failure a documented exception, and no element lost
 * or duplicated (see {@link ChaosRunner} for the model it checks).
 *
 * <p>Tries: jqwik's {@code jqwik.tries.default} (12 in the normal test run, set in this module's
 * {@code junit-platform.properties}; each try is one short JVM, about a second on 2 cores), for a long run
 * {@code mvn -pl queues -am test -Dtest=ChaosPropertyTest -Djqwik.tries.default=500}; script length up to
 * {@code -Doverlap.chaos.steps=N} (default 60). A failing script is shrunk by jqwik and printed with the child's
 * step log.
 */
@Tag("slow")
public class ChaosPropertyTest {
    private static final int STEPS = Integer.getInteger("overlap.chaos.steps", 60);
    private static final long CHILD_TIMEOUT_SECONDS = 120;
    private Path dir;

    @Property(shrinking = ShrinkingMode.BOUNDED)
    void anySequenceOfPublicCallsNeverCrashesAndLosesNothing(@ForAll("scripts") final List<String> script)
        throws Exception {
        final Path file = Files.createTempFile(dir(), "script", ".txt");
        Files.write(file, script, StandardCharsets.UTF_8);
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> cmd = new ArrayList<>(List.of(java,
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC",
            "-XX:ErrorFile=" + dir() + "/hs_err_%p.log", "-cp", System.getProperty("java.class.path"),
            ChaosRunner.class.getName(), file.toString()));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the script hung for " + CHILD_TIMEOUT_SECONDS + " s:\n" + String.join("\n", script));
        }
        final String log = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "the child JVM died (exit " + p.exitValue() + "): crash?\n" + log);
        assertTrue(log.contains("\nVERDICT OK") || log.startsWith("VERDICT OK"), "the script broke a rule:\n" + log);
        Files.delete(file);
    }

    private Path dir() throws IOException {
        if (dir == null) {
            dir = Files.createTempDirectory("overlap-chaos");
        }
        return dir;
    }

    @AfterProperty
    void cleanUp() throws IOException {
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (final Path f : (Iterable<Path>)files::iterator) {
                    if (f.getFileName().toString().startsWith("hs_err")) {
                        fail("a child JVM crashed: " + f + "\n" + Files.readString(f));
                    }
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    @Provide
    Arbitrary<List<String>> scripts() {
        final Arbitrary<ChaosRunner.Op> ops = Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.MESH_NEW)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.MESH_CLOSE)),
            Tuple.of(6, Arbitraries.just(ChaosRunner.Op.ALLOC_LOCAL)),
            Tuple.of(4, Arbitraries.just(ChaosRunner.Op.ALLOC_SYM)),
            Tuple.of(5, Arbitraries.just(ChaosRunner.Op.FREE)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.FREE_WRONG)),
            Tuple.of(8, Arbitraries.just(ChaosRunner.Op.ACCESS)),
            Tuple.of(5, Arbitraries.just(ChaosRunner.Op.LAUNCH)),
            Tuple.of(4, Arbitraries.just(ChaosRunner.Op.JOIN)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.INTERRUPT_JOIN)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.SYNC)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.RELEASE)),
            Tuple.of(3, Arbitraries.just(ChaosRunner.Op.QUEUE_NEW)),
            Tuple.of(6, Arbitraries.just(ChaosRunner.Op.QUEUE_OFFER)),
            Tuple.of(5, Arbitraries.just(ChaosRunner.Op.QUEUE_POLL)),
            Tuple.of(4, Arbitraries.just(ChaosRunner.Op.QUEUE_FILL)),
            Tuple.of(3, Arbitraries.just(ChaosRunner.Op.QUEUE_DRAIN)),
            Tuple.of(3, Arbitraries.just(ChaosRunner.Op.QUEUE_CHECK)),
            Tuple.of(1, Arbitraries.just(ChaosRunner.Op.QUEUE_FREE)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.TRANSPORT_NEW)),
            Tuple.of(3, Arbitraries.just(ChaosRunner.Op.TRANSPORT_SEND)),
            Tuple.of(1, Arbitraries.just(ChaosRunner.Op.TRANSPORT_GET)),
            Tuple.of(1, Arbitraries.just(ChaosRunner.Op.TRANSPORT_CLOSE)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.WORKLIST_RUN)),
            Tuple.of(1, Arbitraries.just(ChaosRunner.Op.WORKLIST_CLOSE)),
            Tuple.of(2, Arbitraries.just(ChaosRunner.Op.REGION_ITER)),
            Tuple.of(1, Arbitraries.just(ChaosRunner.Op.REGION_CLOSE)),
            Tuple.of(1, Arbitraries.just(ChaosRunner.Op.CONCURRENT_CLOSE)));
        final Arbitrary<Integer> param = Arbitraries.integers().between(0, 1000);
        final Arbitrary<String> step = Combinators.combine(ops, param, param, param)
            .as((op, a, b, c) -> op + " " + a + " " + b + " " + c);
        return step.list().ofMinSize(1).ofMaxSize(STEPS);
    }
}
