package dev.overlap.hosts;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * One job: the layout of a {@link HostTransport}'s messages, on a stream of their own beside the host group's. Every
 * message starts with {@link Wire}'s header (type, sender rank, the host file's fingerprint); numbers are
 * little-endian whatever the hosts' byte order, items too (a straight copy on little-endian hosts).
 *
 * <pre>
 *   BATCH    16 device int | 20 queue int | 24 item bytes int (4 or 8) | 28 count int | 32 items
 *   PUT      16 address long | 24 length int | 28 0 | 32 bytes
 *   ATOMIC   16 address long | 24 op int | 28 0 | 32 operand long                                   40
 *   FETCH    16 address long | 24 op int | 28 endpoint int | 32 operand long | 40 expected long | 48 seq long   56
 *   GET      16 address long | 24 length int | 28 endpoint int | 32 seq long                         40
 *   REPLY    16 endpoint int | 20 length int | 24 seq long | 32 value long | 40 bytes (a get's)
 *   APPLIED  16 position long: everything the receiver of this report took from the sender's stream up to it has
 *            been applied                                                                             24
 *   DONE     the sender sends nothing more on this stream                                            16
 * </pre>
 *
 * <p>{@code op} is a {@link dev.overlap.transport.RemoteAtomic} ordinal, or {@link #INT_CAS}/{@link #LONG_CAS};
 * {@code endpoint} is the requesting {@link HostEndpoint}'s index on the sender's rank, {@code seq} its request number
 * (a reply for an older request, one whose wait timed out, is dropped).
 *
 * <p>Stateless; thread-safe.
 */
final class DataWire {
    /** The Aeron stream id of a host transport's messages (the group's is {@link Wire#STREAM_ID}). */
    static final int STREAM_ID = 1019;

    static final int BATCH = 11;
    static final int PUT = 12;
    static final int ATOMIC = 13;
    static final int FETCH = 14;
    static final int GET = 15;
    static final int REPLY = 16;
    static final int APPLIED = 17;
    static final int DONE = 18;

    static final int INT_CAS = 100;
    static final int LONG_CAS = 101;

    static final int DEVICE_OFFSET = 16;
    static final int QUEUE_OFFSET = 20;
    static final int ITEM_BYTES_OFFSET = 24;
    static final int COUNT_OFFSET = 28;
    static final int ITEMS_OFFSET = 32;

    static final int ADDRESS_OFFSET = 16;
    static final int LENGTH_OFFSET = 24;
    static final int OP_OFFSET = 24;
    static final int ENDPOINT_OFFSET = 28;
    static final int DATA_OFFSET = 32;
    static final int OPERAND_OFFSET = 32;
    static final int EXPECTED_OFFSET = 40;
    static final int FETCH_SEQ_OFFSET = 48;
    static final int GET_SEQ_OFFSET = 32;

    static final int REPLY_ENDPOINT_OFFSET = 16;
    static final int REPLY_LENGTH_OFFSET = 20;
    static final int REPLY_SEQ_OFFSET = 24;
    static final int REPLY_VALUE_OFFSET = 32;
    static final int REPLY_DATA_OFFSET = 40;

    static final int POSITION_OFFSET = 16;

    static final int ATOMIC_LENGTH = 40;
    static final int FETCH_LENGTH = 56;
    static final int GET_LENGTH = 40;
    static final int APPLIED_LENGTH = 24;

    static final ByteOrder ORDER = Wire.ORDER;
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private DataWire() {
    }

    /**
     * Copies {@code count} items of {@code itemBytes} from {@code src} (native order) to {@code dst} (little-endian).
     */
    static void putItems(final MutableDirectBuffer dst, final int dstIndex, final DirectBuffer src, final int srcIndex,
        final int count, final int itemBytes) {
        if (NATIVE_LE) {
            dst.putBytes(dstIndex, src, srcIndex, count * itemBytes);
        } else if (itemBytes == Integer.BYTES) {
            for (int i = 0; i < count; i++) {
                dst.putInt(dstIndex + i * 4, src.getInt(srcIndex + i * 4), ORDER);
            }
        } else {
            for (int i = 0; i < count; i++) {
                dst.putLong(dstIndex + i * 8, src.getLong(srcIndex + i * 8), ORDER);
            }
        }
    }

    /** @return a name for a message type, for error messages */
    static String typeName(final int type) {
        switch (type) {
            case BATCH:
                return "BATCH";
            case PUT:
                return "PUT";
            case ATOMIC:
                return "ATOMIC";
            case FETCH:
                return "FETCH";
            case GET:
                return "GET";
            case REPLY:
                return "REPLY";
            case APPLIED:
                return "APPLIED";
            case DONE:
                return "DONE";
            default:
                return "type " + type;
        }
    }
}
