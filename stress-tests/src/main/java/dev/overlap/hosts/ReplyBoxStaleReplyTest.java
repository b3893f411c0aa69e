package dev.overlap.hosts;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An endpoint whose get to one rank timed out has made a second request, to another rank, whose reply is in; the
 * late reply to the first request arrives while the endpoint copies the second one's bytes. The late reply must be
 * dropped: it may neither overwrite the bytes being read nor take the place of the reply expected. A deposit that
 * does not check the request number against the one expected overwrites them.
 *
 * <p>Results: the request number the endpoint then sees arrived, and the first four bytes (as an int) it read.
 */
@JCStressTest
@Description("ReplyBox: a late reply to a request whose wait timed out never reaches the reader")
@Outcome(id = "2, 2222", expect = ACCEPTABLE, desc = "the second reply, whole")
@Outcome(expect = FORBIDDEN, desc = "the late reply overwrote the second one")
@State
public class ReplyBoxStaleReplyTest {
    private static final UnsafeBuffer FIRST = bytes(1111);
    private static final UnsafeBuffer SECOND = bytes(2222);

    private final ReplyBox box = new ReplyBox(64);
    private final UnsafeBuffer read = new UnsafeBuffer(new byte[8]);

    public ReplyBoxStaleReplyTest() {
        box.expect(1);
        box.expect(2); // request 1 timed out; request 2 went out and its reply is in
        box.deposit(2, 0, SECOND, 0, 8);
    }

    private static UnsafeBuffer bytes(final int v) {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        b.putInt(0, v);
        return b;
    }

    @Actor
    public void receiver() {
        box.deposit(1, 0, FIRST, 0, 8); // the late reply to request 1
    }

    @Actor
    public void endpoint(final II_Result r) {
        r.r1 = box.hasArrived(2) ? 2 : box.hasArrived(1) ? 1 : 0;
        box.copyTo(read, 0, 8);
        r.r2 = read.getInt(0);
    }
}
