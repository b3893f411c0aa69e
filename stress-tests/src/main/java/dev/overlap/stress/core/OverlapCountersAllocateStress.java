package dev.overlap.stress.core;

import dev.overlap.core.counters.CounterTypes;
import dev.overlap.core.counters.OverlapCounters;
import org.agrona.concurrent.status.AtomicCounter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link OverlapCounters#allocate} and {@link OverlapCounters#free} from two threads at once (two transports or
 * worklists built on one mesh by different threads): the store's lock makes Agrona's single-threaded
 * {@code CountersManager} safe, so every counter gets a slot of its own and keeps its value and label. Each actor
 * frees one counter it had and allocates three more (the store's first segment is nearly full, so they race for its
 * last slots and for the next segment), writing its own values.
 *
 * <p>Results: counters whose id another live counter has too (0 expected); counters whose value or label is not the
 * one their owner wrote (0 expected).
 */
@JCStressTest
@Description("counters allocated and freed concurrently get distinct slots and keep their values and labels")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "distinct slots, values and labels intact")
@Outcome(expect = FORBIDDEN, desc = "two counters share a slot, or one lost its value or label")
@State
public class OverlapCountersAllocateStress {
    private static final int EACH = 3;
    private static final int PREFILL = 30; // of the first segment's 32 slots
    private final OverlapCounters store = OverlapCounters.inMemory();
    private final AtomicCounter[] prefill = new AtomicCounter[PREFILL];
    private final AtomicCounter[] a = new AtomicCounter[EACH];
    private final AtomicCounter[] b = new AtomicCounter[EACH];

    public OverlapCountersAllocateStress() {
        for (int i = 0; i < PREFILL; i++) {
            prefill[i] = store.allocate(CounterTypes.TRANSPORT, "pre " + i, 0, i);
            prefill[i].setRelease(i);
        }
    }

    private void allocate(final AtomicCounter[] mine, final int owner, final int freed) {
        store.free(prefill[freed]);
        for (int i = 0; i < EACH; i++) {
            mine[i] = store.allocate(CounterTypes.WORKLIST, "owner " + owner + " #" + i, owner, i);
            mine[i].setRelease(owner * 100 + i);
        }
    }

    @Actor
    public void first() {
        allocate(a, 1, 0);
    }

    @Actor
    public void second() {
        allocate(b, 2, 1);
    }

    @Arbiter
    public void arbiter(final II_Result r) {
        final java.util.Map<String, AtomicCounter> slots = new java.util.HashMap<>();
        int shared = 0;
        int wrong = 0;
        for (int i = 2; i < PREFILL; i++) {
            shared += slots.put(slotOf(prefill[i]), prefill[i]) != null ? 1 : 0;
            wrong += prefill[i].get() == i && ("pre " + i).equals(prefill[i].label()) ? 0 : 1;
        }
        for (int owner = 1; owner <= 2; owner++) {
            final AtomicCounter[] mine = owner == 1 ? a : b;
            for (int i = 0; i < EACH; i++) {
                shared += slots.put(slotOf(mine[i]), mine[i]) != null ? 1 : 0;
                wrong += mine[i].get() == owner * 100 + i && ("owner " + owner + " #" + i).equals(mine[i].label())
                    ? 0 : 1;
            }
        }
        r.r1 = shared;
        r.r2 = wrong;
    }

    /** @return the counter's segment (its manager, by identity) and slot id */
    private static String slotOf(final AtomicCounter c) {
        return c.toString().replaceAll("value=-?\\d+", "") + "@" + c.id();
    }
}
