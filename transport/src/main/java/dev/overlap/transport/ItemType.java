package dev.overlap.transport;

/** The element type of a queue's items: fixes the batch message type and the item width. Immutable. */
public enum ItemType {
    /** 4-byte items ({@link MessageFormat#BATCH_INT}). */
    INT(4, MessageFormat.BATCH_INT, MessageFormat.BATCH_INT_REF),
    /** 8-byte items ({@link MessageFormat#BATCH_LONG}). */
    LONG(8, MessageFormat.BATCH_LONG, MessageFormat.BATCH_LONG_REF);

    private final int bytes;
    private final int msgTypeId;
    private final int refMsgTypeId;

    ItemType(final int bytes, final int msgTypeId, final int refMsgTypeId) {
        this.bytes = bytes;
        this.msgTypeId = msgTypeId;
        this.refMsgTypeId = refMsgTypeId;
    }

    /** @return bytes per item */
    public int bytes() {
        return bytes;
    }

    /** @return the ring message type of a batch of these items */
    public int msgTypeId() {
        return msgTypeId;
    }

    /** @return the ring message type of a batch of these items delivered by reference */
    public int refMsgTypeId() {
        return refMsgTypeId;
    }

    int shift() {
        return this == INT ? 2 : 3;
    }
}
