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
 * The stop's side of a persistent launch's barrier sleep handshake ({@link KernelLaunch#stop}), racing directly with a
 * waiting worker about to park (hence this package: both halves are package-private): the worker counts itself a
 * sleeper and then decides whether the round is open and the launch not stopping ({@code enterSleep}); the stop
 * publishes itself and then decides whether anyone may be asleep ({@code publishStop}). The forbidden outcome is a
 * worker left asleep in a stopped launch, which then never ends. See {@code KernelLaunchSleepHandshakeTest} for the
 * last arrival's side.
 *
 * <p>Results: whether the sleeper must park, whether the stop must unpark.
 */
@JCStressTest
@Description("KernelLaunch barrier: a worker going to sleep and a stop never miss each other")
@Outcome(id = "false, false", expect = ACCEPTABLE, desc = "the sleeper saw the stop: no park, no unpark")
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "the sleeper saw the stop; the stop unparks anyway")
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "the sleeper parks; the stop unparks it")
@Outcome(id = "true, false", expect = FORBIDDEN, desc = "a sleeper left asleep in a stopped launch")
@State
public class KernelLaunchStopHandshakeTest {
    private static final class Shared {
        /** The launches' device: never started on (the launches here only hold the barrier's words). */
        static final Device DEVICE = Mesh.builder().name("jcstress-stop-handshake").devices(1).threadsPerDevice(1)
            .memoryPerDevice(1 << 20).build().device(0);
    }

    private final KernelLaunch launch = KernelLaunch.persistent(Shared.DEVICE, 0, ctx -> 0);

    @Actor
    public void sleeper(final ZZ_Result r) {
        r.r1 = launch.enterSleep(0);
    }

    @Actor
    public void stopper(final ZZ_Result r) {
        r.r2 = launch.publishStop();
    }
}
