package dev.overlap.graph.async;

import dev.overlap.core.DeviceRegion;
import dev.overlap.core.Mesh;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.ConcurrentLinkedQueue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The async hybrid BFS's {@link DirectionSwitch} with its shared words in device memory, as a mesh across processes
 * places them (a symmetric allocation every rank's workers add to): two workers of different devices (of different
 * processes, in a run across processes) each publish the edges of a depth-1 discovery, 5,000 each, neither enough to
 * cross Beamer's switch alone ({@code 5000 * 15 <= 100000 - 5000}), both together enough
 * ({@code 10000 * 15 > 100000 - 10000}). The per-depth sums are added with {@code getAndAdd}, so whichever publishes
 * second sees both and sets the cap to 1. A lost update (a read and a separate store) leaves each seeing only its own
 * edges, and the switch never fires although the depth's frontier outweighs the rest.
 *
 * <p>Switches are pooled: a state cannot allocate device memory (jcstress makes thousands), so each pooled switch
 * keeps its words and is reset by the next state that takes it, as a run resets its switch.
 */
@JCStressTest
@Description("DirectionSwitch: two workers' sums of one depth, in shared device memory, add up and fire the switch")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the second publisher saw both sums and capped at depth 1")
@Outcome(expect = FORBIDDEN, desc = "a sum was lost: no cap although the depth's edges outweigh the rest")
@State
public class DirectionSwitchSharedSumsTest {
    /** 18 vertices (n / beta = 1 edge), 100,000 edge slots; each discovery carries 5,000 edges (> FLUSH). */
    private static final int VERTICES = 18;
    private static final long EDGES = 100_000;
    private static final int VOLUME = 5_000;

    /** One mesh per fork and a pool of switches over its memory. */
    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-switch").devices(1).threadsPerDevice(1)
            .memoryPerDevice(32 << 20).build();
        static final ConcurrentLinkedQueue<DirectionSwitch> POOL = new ConcurrentLinkedQueue<>();
    }

    private final DirectionSwitch sw;

    public DirectionSwitchSharedSumsTest() {
        final DirectionSwitch pooled = Shared.POOL.poll();
        if (pooled != null) {
            sw = pooled;
        } else {
            final DeviceRegion words = Shared.MESH.allocateSymmetric(DirectionSwitch.BYTES, 64);
            sw = new DirectionSwitch(2, 1, VERTICES, EDGES, words.buffer(0));
        }
        sw.reset();
    }

    @Actor
    public void workerOfDevice0() {
        sw.discovered(0, 0, 1, VOLUME);
    }

    @Actor
    public void workerOfDevice1() {
        sw.discovered(1, 0, 1, VOLUME);
    }

    @Arbiter
    public void arbiter(final I_Result r) {
        r.r1 = sw.cap();
        Shared.POOL.offer(sw);
    }
}
