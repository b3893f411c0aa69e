package dev.overlap.hosts;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.nio.ByteOrder;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A host group's receiver deposits a peer's contribution to a collective (two values, an operation and a count) in
 * {@link GroupState} while a waiting caller checks whether it arrived and, if so, reads it: a caller that sees the
 * generation must see the whole contribution. A deposit that publishes the generation before the values (or without
 * release/acquire) lets the caller combine values that are not there yet.
 *
 * <p>Results: arrived (1) or not (0), then the count and the two values the caller read.
 */
@JCStressTest
@Description("GroupState deposit: a waiter that sees a collective's generation reads its values whole")
@Outcome(id = "0, 0, 0, 0", expect = ACCEPTABLE, desc = "not arrived yet")
@Outcome(id = "1, 2, 7, 8", expect = ACCEPTABLE, desc = "arrived, whole")
@Outcome(expect = FORBIDDEN, desc = "arrived without its values or its count")
@State
public class GroupStateDepositTest {
    private static final UnsafeBuffer VALUES = values(7, 8);

    private final GroupState state = new GroupState(2, 2);

    private static UnsafeBuffer values(final long a, final long b) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2 * Long.BYTES]);
        buffer.putLong(0, a, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(Long.BYTES, b, ByteOrder.LITTLE_ENDIAN);
        return buffer;
    }

    @Actor
    public void receiver() {
        state.deposit(1, 1, Wire.SUM, VALUES, 0, 2);
    }

    @Actor
    public void waiter(final IIII_Result r) {
        if (state.arrived(1, 1)) {
            r.r1 = 1;
            r.r2 = state.count(1, 1);
            r.r3 = (int)state.value(1, 1, 0);
            r.r4 = (int)state.value(1, 1, 1);
        }
    }
}
