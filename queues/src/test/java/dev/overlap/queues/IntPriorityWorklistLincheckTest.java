package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * {@link IntPriorityWorklist} against a bag of entries ({@link EntryBagModel}): every push succeeds (room enough),
 * a poll returns the very entry ({@code item@key}) some push added and no poll returned before, and answers
 * "empty" only when the bag is empty at one instant of the call. Items are distinct ({@link UniqueIntGen}), so an
 * entry returned twice, lost, invented or separated from its key fails. Threshold moves (delta 1, keys 0..5
 * around a start threshold of 2) happen in most scenarios, so entries cross from far to near under test.
 *
 * <p>Model checking ({@link LincheckRuns#modelCheckOffHeap}: every buffer access a switch point) explores the
 * interleavings of the mover election, which stress mode reaches only by luck: two polls that find near empty
 * while far holds an entry both try to become the mover, and exactly one may. {@link #moverElection()} is that race
 * as a fixed scenario, checked before the random ones: one far entry, two polls, and a push after one of them.
 * With two movers at once (an election by a read and a separate store instead of a CAS), the second mover finds far
 * already emptied by the first, which still holds the entry in its batch, and its next loop answers "empty" with
 * the entry in transit; the push that follows is then polled by the other poll ahead of the entry, and no order of
 * the operations explains that "empty". Stress mode runs the same operations on real threads.
 */
@Param(name = "item", gen = UniqueIntGen.class)
@Param(name = "key", gen = IntGen.class, conf = "0:5")
@Tag("slow")
public class IntPriorityWorklistLincheckTest {
    private static final int CAPACITY = 32;
    /** Keys below it start in near: the election scenario's key 2 starts in far, its key 1 goes to near. */
    private static final int THRESHOLD = 2;
    /**
     * A direct buffer (8-byte aligned, as the worklist asks), not a {@code byte[]}: Agrona prints an alignment warning
     * for every worklist built over an array, and Lincheck builds one per invocation.
     */
    private final IntPriorityWorklist worklist = new IntPriorityWorklist(
        new UnsafeBuffer(ByteBuffer.allocateDirect(IntPriorityWorklist.requiredBytes(CAPACITY))), CAPACITY,
        THRESHOLD, 1);

    @Operation
    public boolean push(@Param(name = "item") final int item, @Param(name = "key") final int key) {
        return worklist.push(item, key) >= 0; // a band, or a code: not taken
    }

    @Operation
    public String poll() {
        final long e = worklist.poll(Long.MIN_VALUE);
        return e == Long.MIN_VALUE ? "empty" : EntryBagModel.entry(IntPriorityWorklist.item(e),
            IntPriorityWorklist.key(e));
    }

    /**
     * The mover election race: {@code push(1, 2)} first (far, as 2 is not below the threshold); then thread 1 polls
     * and pushes {@code 4@1} (near), while thread 2 polls. Allowed: thread 2 gets {@code 1@2} or {@code 4@1}, and
     * thread 1 gets {@code 1@2} or "empty" only if thread 2 took {@code 1@2} before it.
     */
    static ExecutionScenario moverElection() {
        final Method push;
        final Method poll;
        try {
            push = IntPriorityWorklistLincheckTest.class.getMethod("push", int.class, int.class);
            poll = IntPriorityWorklistLincheckTest.class.getMethod("poll");
        } catch (final NoSuchMethodException e) {
            throw new AssertionError(e);
        }
        return new ExecutionScenario(
            List.of(actor(push, 1, THRESHOLD)),
            List.of(List.of(actor(poll), actor(push, 4, THRESHOLD - 1)), List.of(actor(poll))),
            List.of(actor(poll), actor(poll)),
            null);
    }

    private static Actor actor(final Method method, final Object... arguments) {
        return new Actor(method, List.of(arguments), false, false, false, false, false);
    }

    @Test
    public void modelChecking() {
        LincheckRuns.modelCheckOffHeap(getClass(), EntryBagModel.class, ModelVerifier.class,
            List.of(LongCounterRing.class), moverElection());
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), EntryBagModel.class, ModelVerifier.class);
    }
}
