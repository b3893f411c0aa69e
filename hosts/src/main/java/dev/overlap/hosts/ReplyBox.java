package dev.overlap.hosts;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One job: where a reply from another host reaches the {@link HostEndpoint} that asked (a get's bytes, a fetching
 * atomic's previous value). One reader, the endpoint's thread, which has at most one request out at a time; one
 * writer, the host transport's receiver thread.
 *
 * <p>Protocol: the endpoint numbers its requests and {@linkplain #expect announces} each number before it sends the
 * request; the receiver {@linkplain #deposit deposits} a reply only if its number is the one expected (a reply to a
 * request whose wait timed out finds a newer number and is dropped), writing the value and bytes first and the
 * number last with a release store; the endpoint reads the number with an acquire load and, once it is its own,
 * the value and bytes. A stale deposit cannot overwrite a fresh one: both are made by the one receiver thread, in the
 * order their messages arrive, and the fresh reply comes after the request it answers, which was sent after the
 * number changed.
 *
 * <p>Thread-safety: as above, one reader thread and one writer thread.
 */
final class ReplyBox {
    private static final VarHandle ARRIVED;
    private static final VarHandle EXPECTED;

    static {
        try {
            final MethodHandles.Lookup l = MethodHandles.lookup();
            ARRIVED = l.findVarHandle(ReplyBox.class, "arrived", long.class);
            EXPECTED = l.findVarHandle(ReplyBox.class, "expected", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final UnsafeBuffer bytes;
    private long value;
    private int length;
    @SuppressWarnings("unused") // through ARRIVED
    private long arrived;
    @SuppressWarnings("unused") // through EXPECTED
    private long expected;

    /** @param capacity most bytes one reply carries */
    ReplyBox(final int capacity) {
        this.bytes = new UnsafeBuffer(new byte[capacity]);
    }

    /** Reader: request {@code seq} is about to go out. */
    void expect(final long seq) {
        EXPECTED.setRelease(this, seq);
    }

    /**
     * Writer: the reply to request {@code seq}.
     *
     * @return false if it was dropped (not the request expected now)
     */
    boolean deposit(final long seq, final long replyValue, final DirectBuffer src, final int offset, final int n) {
        if ((long)EXPECTED.getAcquire(this) != seq || n > bytes.capacity()) {
            return false;
        }
        if (n > 0) {
            bytes.putBytes(0, src, offset, n);
        }
        value = replyValue;
        length = n;
        ARRIVED.setRelease(this, seq);
        return true;
    }

    /** Reader: @return true once the reply to {@code seq} is in (acquire: its value and bytes are then visible) */
    boolean hasArrived(final long seq) {
        return (long)ARRIVED.getAcquire(this) == seq;
    }

    /** Reader, after {@link #hasArrived}: @return the reply's value */
    long value() {
        return value;
    }

    /** Reader, after {@link #hasArrived}: copies the reply's bytes (at most {@code n}) into {@code dst}. */
    int copyTo(final MutableDirectBuffer dst, final int offset, final int n) {
        final int m = Math.min(n, length);
        dst.putBytes(offset, bytes, 0, m);
        return m;
    }
}
