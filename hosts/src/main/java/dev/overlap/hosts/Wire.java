package dev.overlap.hosts;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * One job: the layout of a host group's messages, each one Aeron message that fits one frame (so no fragment
 * assembly is needed: {@link HostGroup} checks that the publications' payload limit holds the largest). Every
 * message starts with the same header; numbers are little-endian whatever the hosts' byte order.
 *
 * <pre>
 *   0  type      int     HEARTBEAT, COLLECTIVE, FAILED, BYE or BYE_ACK
 *   4  sender    int     the sender's rank
 *   8  group     long    the host file's fingerprint: messages of another group are ignored
 *  16  body
 *
 *   COLLECTIVE  16 generation long (1, 2, ... per sender), 24 op int, 28 count int, 32 count longs
 *   FAILED      16 failed rank int, 20 reason (ASCII, int length first, at most MAX_REASON characters)
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
final class Wire {
    /** The Aeron stream id of every host group. */
    static final int STREAM_ID = 1018;

    static final int HEARTBEAT = 1;
    static final int COLLECTIVE = 2;
    static final int FAILED = 3;
    static final int BYE = 4;
    static final int BYE_ACK = 5;

    static final int BARRIER = 0;
    static final int SUM = 1;
    static final int MAX = 2;
    static final int SAME = 3;

    static final int TYPE_OFFSET = 0;
    static final int SENDER_OFFSET = 4;
    static final int GROUP_OFFSET = 8;
    static final int HEADER_LENGTH = 16;
    static final int GENERATION_OFFSET = 16;
    static final int OP_OFFSET = 24;
    static final int COUNT_OFFSET = 28;
    static final int VALUES_OFFSET = 32;
    static final int FAILED_RANK_OFFSET = 16;
    static final int REASON_OFFSET = 20;

    /** Most values one reduction carries. */
    static final int MAX_VALUES = 128;
    /** Longest reason a FAILED message carries (longer ones are cut). */
    static final int MAX_REASON = 600;
    /** Longest message. */
    static final int MAX_MESSAGE = Math.max(VALUES_OFFSET + MAX_VALUES * Long.BYTES, REASON_OFFSET + 4 + MAX_REASON);

    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private Wire() {
    }

    /** @return the header's length, written into {@code b} */
    static int header(final MutableDirectBuffer b, final int type, final int sender, final long group) {
        b.putInt(TYPE_OFFSET, type, ORDER);
        b.putInt(SENDER_OFFSET, sender, ORDER);
        b.putLong(GROUP_OFFSET, group, ORDER);
        return HEADER_LENGTH;
    }

    /** @return the length of the collective message written into {@code b} */
    static int collective(final MutableDirectBuffer b, final int sender, final long group, final long generation,
        final int op, final long[] values) {
        header(b, COLLECTIVE, sender, group);
        b.putLong(GENERATION_OFFSET, generation, ORDER);
        b.putInt(OP_OFFSET, op, ORDER);
        b.putInt(COUNT_OFFSET, values.length, ORDER);
        for (int i = 0; i < values.length; i++) {
            b.putLong(VALUES_OFFSET + i * Long.BYTES, values[i], ORDER);
        }
        return VALUES_OFFSET + values.length * Long.BYTES;
    }

    /** @return the length of the failure report written into {@code b} */
    static int failed(final MutableDirectBuffer b, final int sender, final long group, final int failedRank,
        final String reason) {
        header(b, FAILED, sender, group);
        b.putInt(FAILED_RANK_OFFSET, failedRank, ORDER);
        final StringBuilder ascii = new StringBuilder(Math.min(reason.length(), MAX_REASON));
        for (int i = 0; i < reason.length() && ascii.length() < MAX_REASON; i++) {
            final char c = reason.charAt(i);
            ascii.append(c < 128 ? c : '?');
        }
        return REASON_OFFSET + b.putStringAscii(REASON_OFFSET, ascii.toString(), ORDER);
    }

    /** @return the reason of a failure report of {@code length} bytes at {@code offset}, or null if malformed */
    static String reason(final DirectBuffer b, final int offset, final int length) {
        if (length < REASON_OFFSET + 4) {
            return null;
        }
        final int chars = b.getInt(offset + REASON_OFFSET, ORDER);
        if (chars < 0 || chars > MAX_REASON || REASON_OFFSET + 4 + chars > length) {
            return null;
        }
        return b.getStringAscii(offset + REASON_OFFSET, ORDER);
    }

    /** @return what a collective is, for messages: "a barrier", "allReduceSum of 3 values" */
    static String describe(final int op, final int count) {
        switch (op) {
            case BARRIER:
                return "a barrier";
            case SUM:
                return "allReduceSum of " + count + (count == 1 ? " value" : " values");
            case MAX:
                return "allReduceMax of " + count + (count == 1 ? " value" : " values");
            case SAME:
                return "checkSame";
            default:
                return "an unknown collective (op " + op + ")";
        }
    }
}
