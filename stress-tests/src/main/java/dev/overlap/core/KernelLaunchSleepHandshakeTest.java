package dev.overlap.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The sleep handshake of a persistent launch's barrier ({@link KernelLaunch#syncWorkers}), its two halves racing
 * directly (hence this package: they are package-private): a waiting worker about to park ({@code enterSleep}: count
 * itself a sleeper, then decide whether the round is still open) against the round's last arrival
 * ({@code publishRound}: publish the next round, then decide whether anyone may be asleep). The forbidden outcome is
 * a lost wake-up: the worker decides to park and the last arrival decides nobody sleeps. A half that reads before it
 * writes, or a write and read left unordered (plain or release/acquire instead of volatile), allows it.
 *
 * <p>{@code KernelLaunchBarrierSleepTest} (in {@code dev.overlap.stress.core}) runs the whole barrier with parked
 * workers end to end; a whole launch per sample is too slow for it to meet this race often, so the race itself is
 * here, on an unstarted launch object per state (no thread parks: each actor only takes its decision).
 *
 * <p>Results: whether the sleeper must park, whether the last arrival must unpark.
 */
@JCStressTest
@Description("KernelLaunch barrier: a worker going to sleep and the round's last arrival never miss each other")
@Outcome(id = "false, false", expect = ACCEPTABLE, desc = "the sleeper saw the round published: no park, no unpark")
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "the sleeper saw the round; the last arrival unparks anyway")
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "the sleeper parks; the last arrival unparks it")
@Outcome(id = "true, false", expect = FORBIDDEN, desc = "lost wake-up: the sleeper parks and nobody unparks it")
@State
public class KernelLaunchSleepHandshakeTest {
    private static final class Shared {
        /** The launches' device: never started on (the launches here only hold the barrier's words). */
        static final Device DEVICE = Mesh.builder().name("jcstress-handshake").devices(1).threadsPerDevice(1)
            .memoryPerDevice(1 << 20).build().device(0);
    }

    private final KernelLaunch launch = KernelLaunch.persistent(Shared.DEVICE, 0, ctx -> 0);

    @Actor
    public void sleeper(final ZZ_Result r) {
        r.r1 = launch.enterSleep(0);
    }

    @Actor
    public void lastArrival(final ZZ_Result r) {
        r.r2 = launch.publishRound(0);
    }
}
