package dev.overlap.hosts;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A host transport's receiver deposits the reply to a get (its bytes) and a fetching atomic (its value) in the
 * requesting endpoint's {@link ReplyBox} while the endpoint checks whether it arrived and, if so, reads it: an
 * endpoint that sees its request's number must read the whole reply. A deposit that publishes the number before the
 * value and bytes (or without release/acquire) hands the endpoint a reply that is not there yet.
 *
 * <p>Results: arrived (1) or not (0), then the value and the first four bytes (as an int) the endpoint read.
 */
@JCStressTest
@Description("ReplyBox deposit: an endpoint that sees its request's number reads the whole reply")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "not arrived yet")
@Outcome(id = "1, 42, 1234567", expect = ACCEPTABLE, desc = "arrived, whole")
@Outcome(expect = FORBIDDEN, desc = "arrived without its value or its bytes")
@State
public class ReplyBoxDepositTest {
    private static final UnsafeBuffer BYTES = bytes();

    private final ReplyBox box = new ReplyBox(64);
    private final UnsafeBuffer read = new UnsafeBuffer(new byte[8]);

    public ReplyBoxDepositTest() {
        box.expect(1); // the endpoint announced request 1 before it sent it
    }

    private static UnsafeBuffer bytes() {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        b.putInt(0, 1234567);
        return b;
    }

    @Actor
    public void receiver() {
        box.deposit(1, 42, BYTES, 0, 8);
    }

    @Actor
    public void endpoint(final III_Result r) {
        if (box.hasArrived(1)) {
            r.r1 = 1;
            r.r2 = (int)box.value();
            box.copyTo(read, 0, 8);
            r.r3 = read.getInt(0);
        }
    }
}
