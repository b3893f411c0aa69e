package dev.overlap.transport;

import org.agrona.concurrent.ringbuffer.RecordDescriptor;

/**
 * The wire format of inbox messages. Every message is one record of an Agrona
 * {@link org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer}: Agrona's 8-byte record header ({@code int length},
 * {@code int msgTypeId}) followed by the payload below, records aligned to 8 bytes. Byte order is the buffer's
 * native order (all parties share one host). Offsets are relative to the start of the payload, which Agrona aligns
 * to 8 bytes, so every {@code long} field and every long item is naturally aligned.
 *
 * <pre>
 * type             payload layout (bytes)                                                       payload length
 * BATCH_INT  (1)   +0 int sender | +4 int queueId | +8 int items...                              8 + 4 n
 * BATCH_LONG (2)   +0 int sender | +4 int queueId | +8 long items...                             8 + 8 n
 * PUT        (3)   +0 int sender | +4 int length  | +8 long dstAddress | +16 bytes...            16 + length
 * ATOMIC     (4)   +0 int sender | +4 int op      | +8 long address    | +16 long operand        24
 * FETCH      (5)   ATOMIC fields | +24 long expected (CAS only) | +32 int slot | +36 int 0 | +40 long seq   48
 * GET        (6)   +0 int sender | +4 int slot    | +8 long srcAddress | +16 int length | +20 int 0 | +24 long seq  32
 * BATCH_INT_REF  (7)  +0 int sender | +4 int queueId | +8 int count | +12 int batch | +16 long offset       24
 * BATCH_LONG_REF (8)  as BATCH_INT_REF, long items                                                          24
 * </pre>
 *
 * <p>A {@code *_REF} message delivers {@code count / batch} whole batches of {@code batch} items by reference (one
 * JVM only, see {@link Transport.Builder#directBatchThreshold(int)}): the items are not in the message but in the
 * sender's source buffer from byte {@code offset}; the receiver finds that buffer through the sending endpoint, which
 * keeps it untouched until the message has been applied, and hands the batches to the queue's handler one by one,
 * in order. One descriptor for a whole bulk offer keeps the ring traffic per offer at one record.
 *
 * <p>{@code sender} is the sending {@link Endpoint}'s id: the receiver counts applied messages per sender (the
 * completion counters behind {@link Endpoint#quiet()} and the ordering fence of the direct path) and finds the
 * sender's reply slots through it. A batch carries no item count: it is {@code (length - 8) / itemBytes}. Addresses
 * are {@link dev.overlap.core.GlobalAddress global addresses}. {@code FETCH} and {@code GET} carry a reply slot index
 * and a sequence number: the receiver writes the result (the previous value, or the bytes into the requester's
 * destination buffer) and then stores {@code seq} into the slot with release semantics.
 *
 * <p>Stateless; thread-safe.
 */
public final class MessageFormat {
    /** A batch of {@code int} items for one queue. */
    public static final int BATCH_INT = 1;
    /** A batch of {@code long} items for one queue. */
    public static final int BATCH_LONG = 2;
    /** Bytes to copy to a global address on the receiving device. */
    public static final int PUT = 3;
    /** A remote atomic without reply. */
    public static final int ATOMIC = 4;
    /** A remote atomic (or CAS) whose previous value is sent back. */
    public static final int FETCH = 5;
    /** A request to copy bytes from the receiving device back to the requester. */
    public static final int GET = 6;

    /** A batch of {@code int} items delivered by reference to the sender's buffer. */
    public static final int BATCH_INT_REF = 7;
    /** A batch of {@code long} items delivered by reference to the sender's buffer. */
    public static final int BATCH_LONG_REF = 8;

    /** Agrona's per-record header, in front of every payload. */
    public static final int RECORD_HEADER_LENGTH = RecordDescriptor.HEADER_LENGTH;
    /** Payload bytes in front of the items of a batch. */
    public static final int BATCH_HEADER_LENGTH = 8;
    /** Payload bytes in front of the data of a put. */
    public static final int PUT_HEADER_LENGTH = 16;
    /** Payload length of an {@link #ATOMIC} message. */
    public static final int ATOMIC_LENGTH = 24;
    /** Payload length of a {@link #FETCH} message. */
    public static final int FETCH_LENGTH = 48;
    /** Payload length of a {@link #GET} message. */
    public static final int GET_LENGTH = 32;
    /** Payload length of a {@link #BATCH_INT_REF} or {@link #BATCH_LONG_REF} message. */
    public static final int BATCH_REF_LENGTH = 24;

    static final int SENDER_OFFSET = 0;
    static final int QUEUE_ID_OFFSET = 4;
    static final int ITEMS_OFFSET = 8;
    static final int PUT_LENGTH_OFFSET = 4;
    static final int PUT_ADDRESS_OFFSET = 8;
    static final int PUT_DATA_OFFSET = 16;
    static final int OP_OFFSET = 4;
    static final int ADDRESS_OFFSET = 8;
    static final int OPERAND_OFFSET = 16;
    static final int EXPECTED_OFFSET = 24;
    static final int FETCH_SLOT_OFFSET = 32;
    static final int FETCH_SEQ_OFFSET = 40;
    static final int GET_SLOT_OFFSET = 4;
    static final int GET_ADDRESS_OFFSET = 8;
    static final int GET_LENGTH_OFFSET = 16;
    static final int GET_SEQ_OFFSET = 24;
    static final int REF_COUNT_OFFSET = 8;
    static final int REF_BATCH_OFFSET = 12;
    static final int REF_OFFSET_OFFSET = 16;

    private MessageFormat() {
    }

    /**
     * @param batchBytes largest payload of one batch message (header included)
     * @param type       the item type
     * @return how many items one batch of that size carries
     */
    public static int itemsPerBatch(final int batchBytes, final ItemType type) {
        return (batchBytes - BATCH_HEADER_LENGTH) / type.bytes();
    }

    /**
     * @param payloadLength a payload length
     * @return the bytes the record takes in the ring (header and alignment included)
     */
    public static int recordLength(final int payloadLength) {
        return (payloadLength + RECORD_HEADER_LENGTH + RecordDescriptor.ALIGNMENT - 1) & -RecordDescriptor.ALIGNMENT;
    }

    static String typeName(final int msgTypeId) {
        switch (msgTypeId) {
            case BATCH_INT:
                return "BATCH_INT";
            case BATCH_LONG:
                return "BATCH_LONG";
            case PUT:
                return "PUT";
            case ATOMIC:
                return "ATOMIC";
            case FETCH:
                return "FETCH";
            case GET:
                return "GET";
            case BATCH_INT_REF:
                return "BATCH_INT_REF";
            case BATCH_LONG_REF:
                return "BATCH_LONG_REF";
            default:
                return "type " + msgTypeId;
        }
    }
}
