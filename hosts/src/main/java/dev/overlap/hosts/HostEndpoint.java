package dev.overlap.hosts;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.OfferResult;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.Waits;
import dev.overlap.transport.Inbox;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.RemoteAtomic;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A sending context of a {@link HostTransport} for one thread: pushes batches into the queues of devices on other
 * ranks and makes one-sided puts, gets and atomics on their memory. A destination is a rank (not this one: its
 * devices are reached through the local {@link dev.overlap.transport.Endpoint}) and a device id or a global address
 * on that rank.
 *
 * <p><b>Naming</b> follows the local endpoint's: {@code tryOffer} never waits and returns an {@link OfferResult}
 * code; {@code offerBlocking} and the remote operations wait on back-pressure (and for replies); the forms with a
 * timeout wait at most that long. A wait drains the endpoint's home inbox meanwhile, is interruptible
 * ({@link InterruptedWaitException}, interrupt status kept) and ends with the group's {@link PeerFailedException}
 * naming the rank once a rank failed.
 *
 * <p><b>Ordering and completion:</b> everything this endpoint sends to one rank takes effect there in the order sent;
 * after {@link #quiet()} everything it sent has been applied at its destinations. A get or fetching atomic returns the
 * value as of the moment the destination applied it. A timed operation that gives up loses nothing and duplicates
 * nothing: a message that was sent still takes effect (a late reply is dropped), one that was not is not sent.
 *
 * <p>Thread-safety: single-threaded, like {@link dev.overlap.transport.Endpoint}; ownership may move with a
 * happens-before edge.
 */
public final class HostEndpoint implements AutoCloseable {
    private static final int HEADER_CAPACITY = 64;

    private final HostTransport owner;
    private final int index;
    private final int homeDevice;
    private final Inbox home;
    private final int rank;
    private final int ranks;
    private final int devices;
    private final int maxQueues;
    private final int maxMessage;
    private final ReplyBox box;
    private final long[] lastPosition;
    private final BufferClaim claim = new BufferClaim();
    private final UnsafeBuffer head = new UnsafeBuffer(new byte[HEADER_CAPACITY]);
    private final UnsafeBuffer eight = new UnsafeBuffer(new byte[8]);
    private final IdleStrategy idle = HostTransport.idle();
    private long seq;
    private boolean closed;

    HostEndpoint(final HostTransport owner, final int index, final int homeDevice) {
        this.owner = owner;
        this.index = index;
        this.homeDevice = homeDevice;
        this.home = owner.transport().inbox(homeDevice);
        this.rank = owner.rank();
        this.ranks = owner.ranks();
        this.devices = owner.devicesPerRank();
        this.maxQueues = owner.transport().maxQueues();
        this.maxMessage = owner.maxMessageBytes();
        this.box = new ReplyBox(maxMessage - DataWire.REPLY_DATA_OFFSET);
        this.lastPosition = new long[ranks];
    }

    /** @return this endpoint's index in its transport (what replies to it carry) */
    public int index() {
        return index;
    }

    /** @return where the receiver deposits this endpoint's replies */
    ReplyBox replyBox() {
        return box;
    }

    /** @return the local device whose inbox this endpoint drains while it waits */
    public int homeDevice() {
        return homeDevice;
    }

    /**
     * @param type an item type
     * @return most items one batch message carries ({@code tryOffer}'s limit; the blocking forms split larger ones)
     */
    public int maxBatchItems(final ItemType type) {
        return (maxMessage - DataWire.ITEMS_OFFSET) / type.bytes();
    }

    /** @return most bytes a get may ask for in one message (larger gets are split) */
    public int maxGetBytes() {
        return maxMessage - DataWire.REPLY_DATA_OFFSET;
    }

    // ---------------------------------------------------------------------------------------------- batches

    /**
     * Sends {@code count} items as one batch to queue {@code queueId} of device {@code device} on rank
     * {@code toRank}, whose registered handler receives them in one call. Never waits.
     *
     * @param toRank  the destination rank, not this one
     * @param device  a device of that rank
     * @param queueId the queue, below the transport's {@code maxQueues}
     * @param type    the items' type (the one the handler was registered for)
     * @param src     holds the items in native byte order
     * @param offset  byte index in {@code src} of the first item
     * @param count   items, 1 .. {@link #maxBatchItems(ItemType)}
     * @return {@code count} when sent; otherwise, with nothing sent, {@link OfferResult#BACK_PRESSURED} or
     *         {@link OfferResult#ADMIN_ACTION} (Aeron's flow control: try again), {@link OfferResult#NOT_CONNECTED}
     *         (the rank's receiver is gone: it is recorded as failed), {@link OfferResult#MAX_POSITION_EXCEEDED} (the
     *         stream is used up), {@link OfferResult#CLOSED} (this endpoint or its transport is closed)
     * @throws IllegalArgumentException  for a wrong rank, device, queue or count (naming it)
     * @throws IndexOutOfBoundsException if the items do not lie in {@code src}
     */
    public int tryOffer(final int toRank, final int device, final int queueId, final ItemType type,
        final DirectBuffer src, final int offset, final int count) {
        if (closed || owner.isClosed()) {
            return OfferResult.CLOSED;
        }
        checkBatch(toRank, device, queueId, type, src, offset, count);
        if (count > maxBatchItems(type)) {
            throw new IllegalArgumentException("a batch of " + count + " " + type + " items does not fit one message"
                + " (at most " + maxBatchItems(type) + "): use offerBlocking, which splits it");
        }
        final long r = sendBatch(toRank, device, queueId, type, src, offset, count);
        return r > 0 ? count : (int)r;
    }

    /**
     * As {@link #tryOffer}, for any number of items: sent as batches of at most {@link #maxBatchItems}, in order,
     * waiting on back-pressure.
     *
     * @param toRank  the destination rank, not this one
     * @param device  a device of that rank
     * @param queueId the queue
     * @param type    the items' type
     * @param src     holds the items in native byte order
     * @param offset  byte index in {@code src} of the first item
     * @param count   items, at least 1
     * @throws PeerFailedException      if a rank failed (naming it)
     * @throws InterruptedWaitException if interrupted (the batches sent before it stay sent)
     * @throws IllegalStateException    if this endpoint or its transport is closed
     */
    public void offerBlocking(final int toRank, final int device, final int queueId, final ItemType type,
        final DirectBuffer src, final int offset, final int count) {
        offer(toRank, device, queueId, type, src, offset, count, Waits.NO_DEADLINE);
    }

    /**
     * As {@link #offerBlocking}, giving up after {@code timeout}.
     *
     * @param toRank  the destination rank, not this one
     * @param device  a device of that rank
     * @param queueId the queue
     * @param type    the items' type
     * @param src     holds the items in native byte order
     * @param offset  byte index in {@code src} of the first item
     * @param count   items, at least 1
     * @param timeout the longest wait, {@code <= 0} for none
     * @param unit    its unit
     * @return items sent (whole batches, the first ones): {@code count} unless the wait timed out
     */
    public int offer(final int toRank, final int device, final int queueId, final ItemType type,
        final DirectBuffer src, final int offset, final int count, final long timeout, final TimeUnit unit) {
        return offer(toRank, device, queueId, type, src, offset, count, Waits.deadline(timeout, unit));
    }

    private int offer(final int toRank, final int device, final int queueId, final ItemType type,
        final DirectBuffer src, final int offset, final int count, final long deadline) {
        checkUsable();
        checkBatch(toRank, device, queueId, type, src, offset, count);
        final int per = maxBatchItems(type);
        int done = 0;
        while (done < count) {
            final int n = Math.min(per, count - done);
            final int at = offset + done * type.bytes();
            idle.reset(); // each message's wait starts spinning (a wait left parking would park the next at once)
            while (true) {
                final long r = sendBatch(toRank, device, queueId, type, src, at, n);
                if (r > 0) {
                    break;
                }
                if (!retry(r, toRank, deadline, "a batch to rank " + toRank)) {
                    return done;
                }
            }
            done += n;
        }
        return done;
    }

    private long sendBatch(final int toRank, final int device, final int queueId, final ItemType type,
        final DirectBuffer src, final int offset, final int count) {
        Wire.header(head, DataWire.BATCH, rank, owner.fingerprint());
        head.putInt(DataWire.DEVICE_OFFSET, device, DataWire.ORDER);
        head.putInt(DataWire.QUEUE_OFFSET, queueId, DataWire.ORDER);
        head.putInt(DataWire.ITEM_BYTES_OFFSET, type.bytes(), DataWire.ORDER);
        head.putInt(DataWire.COUNT_OFFSET, count, DataWire.ORDER);
        return send(toRank, DataWire.ITEMS_OFFSET, src, offset, count * type.bytes(), type.bytes());
    }

    private void checkBatch(final int toRank, final int device, final int queueId, final ItemType type,
        final DirectBuffer src, final int offset, final int count) {
        checkRank(toRank);
        checkDevice(device);
        if (queueId < 0 || queueId >= maxQueues) {
            throw new IllegalArgumentException("queue " + queueId + " does not exist: queues are 0.." + (maxQueues - 1));
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(src, "src");
        if (count < 1) {
            throw new IllegalArgumentException("a batch has at least one item, count was " + count);
        }
        if (offset < 0 || (long)offset + (long)count * type.bytes() > src.capacity()) {
            throw new IndexOutOfBoundsException(count + " " + type + " items from byte " + offset + " do not lie in"
                + " the source buffer of " + src.capacity() + " bytes");
        }
    }

    // ---------------------------------------------------------------------------------------------- put

    /**
     * Copies {@code length} bytes of {@code src} to {@code dstAddress} on rank {@code toRank} (split into messages
     * of at most {@link HostTransport#maxMessageBytes()}), waiting on back-pressure; {@code src} may be reused on
     * return.
     *
     * @param toRank     the destination rank, not this one
     * @param dstAddress a global address on that rank
     * @param src        the bytes
     * @param srcOffset  index in {@code src} of the first
     * @param length     bytes, at least 0
     */
    public void put(final int toRank, final long dstAddress, final DirectBuffer src, final int srcOffset,
        final int length) {
        put(toRank, dstAddress, src, srcOffset, length, Waits.NO_DEADLINE);
    }

    /**
     * As {@link #put(int, long, DirectBuffer, int, int)}, giving up after {@code timeout}.
     *
     * @param toRank     the destination rank, not this one
     * @param dstAddress a global address on that rank
     * @param src        the bytes
     * @param srcOffset  index in {@code src} of the first
     * @param length     bytes, at least 0
     * @param timeout    the longest wait, {@code <= 0} for none
     * @param unit       its unit
     * @return true if every byte was sent; false if the wait timed out (the first messages may have been sent)
     */
    public boolean put(final int toRank, final long dstAddress, final DirectBuffer src, final int srcOffset,
        final int length, final long timeout, final TimeUnit unit) {
        return put(toRank, dstAddress, src, srcOffset, length, Waits.deadline(timeout, unit));
    }

    /**
     * Puts one {@code long} (8 bytes, native order) to {@code dstAddress} on rank {@code toRank}.
     *
     * @param toRank     the destination rank, not this one
     * @param dstAddress a global address on that rank
     * @param value      the value
     */
    public void putLong(final int toRank, final long dstAddress, final long value) {
        eight.putLong(0, value);
        put(toRank, dstAddress, eight, 0, 8);
    }

    private boolean put(final int toRank, final long dstAddress, final DirectBuffer src, final int srcOffset,
        final int length, final long deadline) {
        checkUsable();
        checkRank(toRank);
        Objects.requireNonNull(src, "src");
        if (length < 0 || srcOffset < 0 || (long)srcOffset + length > src.capacity()) {
            throw new IndexOutOfBoundsException(length + " bytes from " + srcOffset + " do not lie in the source buffer"
                + " of " + src.capacity() + " bytes");
        }
        checkAddress(dstAddress, length, 1, "put target");
        final int per = maxMessage - DataWire.DATA_OFFSET;
        int done = 0;
        while (done < length) {
            final int n = Math.min(per, length - done);
            Wire.header(head, DataWire.PUT, rank, owner.fingerprint());
            head.putLong(DataWire.ADDRESS_OFFSET, dstAddress + done, DataWire.ORDER);
            head.putInt(DataWire.LENGTH_OFFSET, n, DataWire.ORDER);
            head.putInt(DataWire.LENGTH_OFFSET + 4, 0, DataWire.ORDER);
            idle.reset();
            while (true) {
                final long r = send(toRank, DataWire.DATA_OFFSET, src, srcOffset + done, n, 1);
                if (r > 0) {
                    break;
                }
                if (!retry(r, toRank, deadline, "a put to rank " + toRank)) {
                    return false;
                }
            }
            done += n;
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------------- atomics

    /**
     * Applies {@code op} with {@code operand} at {@code address} on rank {@code toRank}, without a reply; waits only
     * on back-pressure.
     *
     * @param toRank  the destination rank, not this one
     * @param op      the operation
     * @param address a global address on that rank, aligned to the operand's width
     * @param operand the operand
     */
    public void atomic(final int toRank, final RemoteAtomic op, final long address, final long operand) {
        atomic(toRank, op, address, operand, Waits.NO_DEADLINE);
    }

    /**
     * As {@link #atomic(int, RemoteAtomic, long, long)}, giving up after {@code timeout}.
     *
     * @param toRank  the destination rank, not this one
     * @param op      the operation
     * @param address a global address on that rank, aligned to the operand's width
     * @param operand the operand
     * @param timeout the longest wait, {@code <= 0} for none
     * @param unit    its unit
     * @return true if sent; false if the wait timed out (nothing was sent)
     */
    public boolean atomic(final int toRank, final RemoteAtomic op, final long address, final long operand,
        final long timeout, final TimeUnit unit) {
        return atomic(toRank, op, address, operand, Waits.deadline(timeout, unit));
    }

    private boolean atomic(final int toRank, final RemoteAtomic op, final long address, final long operand,
        final long deadline) {
        checkUsable();
        checkRank(toRank);
        Objects.requireNonNull(op, "op");
        checkAddress(address, op.width(), op.width(), "atomic target");
        Wire.header(head, DataWire.ATOMIC, rank, owner.fingerprint());
        head.putLong(DataWire.ADDRESS_OFFSET, address, DataWire.ORDER);
        head.putInt(DataWire.OP_OFFSET, op.ordinal(), DataWire.ORDER);
        head.putInt(DataWire.ENDPOINT_OFFSET, index, DataWire.ORDER);
        head.putLong(DataWire.OPERAND_OFFSET, operand, DataWire.ORDER);
        return sendFixed(toRank, DataWire.ATOMIC_LENGTH, deadline, "an atomic to rank " + toRank);
    }

    /**
     * Applies {@code op} at {@code address} on rank {@code toRank} and returns the previous value.
     *
     * @param toRank  the destination rank, not this one
     * @param op      the operation
     * @param address a global address on that rank, aligned to the operand's width
     * @param operand the operand
     * @return the previous value (sign-extended for {@code int}s)
     */
    public long fetch(final int toRank, final RemoteAtomic op, final long address, final long operand) {
        Objects.requireNonNull(op, "op");
        return request(toRank, DataWire.FETCH, op.ordinal(), address, op.width(), operand, 0, null, 0,
            Waits.NO_DEADLINE);
    }

    /**
     * As {@link #fetch(int, RemoteAtomic, long, long)}, giving up after {@code timeout}.
     *
     * @param toRank  the destination rank, not this one
     * @param op      the operation
     * @param address a global address on that rank, aligned to the operand's width
     * @param operand the operand
     * @param timeout the longest wait, {@code <= 0} for none
     * @param unit    its unit
     * @return the previous value
     * @throws TimeoutException if no reply came in time (a sent request still takes effect)
     */
    public long fetch(final int toRank, final RemoteAtomic op, final long address, final long operand,
        final long timeout, final TimeUnit unit) throws TimeoutException {
        Objects.requireNonNull(op, "op");
        return timed(request(toRank, DataWire.FETCH, op.ordinal(), address, op.width(), operand, 0, null, 0,
            Waits.deadline(timeout, unit)), "a fetch from rank " + toRank);
    }

    /**
     * @param toRank   the destination rank, not this one
     * @param address  a global address on that rank, 4-byte aligned
     * @param expected the value expected
     * @param value    the value to set
     * @return true if the {@code int} at {@code address} on rank {@code toRank} was {@code expected} (now
     *         {@code value})
     */
    public boolean compareAndSetInt(final int toRank, final long address, final int expected, final int value) {
        return request(toRank, DataWire.FETCH, DataWire.INT_CAS, address, 4, value, expected, null, 0,
            Waits.NO_DEADLINE) == expected;
    }

    /**
     * @param toRank   the destination rank, not this one
     * @param address  a global address on that rank, 8-byte aligned
     * @param expected the value expected
     * @param value    the value to set
     * @return true if the {@code long} at {@code address} on rank {@code toRank} was {@code expected} (now
     *         {@code value})
     */
    public boolean compareAndSetLong(final int toRank, final long address, final long expected, final long value) {
        return request(toRank, DataWire.FETCH, DataWire.LONG_CAS, address, 8, value, expected, null, 0,
            Waits.NO_DEADLINE) == expected;
    }

    // ---------------------------------------------------------------------------------------------- get

    /**
     * Copies {@code length} bytes from {@code srcAddress} on rank {@code toRank} into {@code dst} (split into gets of
     * at most {@link #maxGetBytes()}), waiting for the replies.
     *
     * @param toRank     the rank, not this one
     * @param srcAddress a global address on that rank
     * @param dst        where the bytes go
     * @param dstOffset  index in {@code dst} of the first
     * @param length     bytes, at least 0
     */
    public void get(final int toRank, final long srcAddress, final MutableDirectBuffer dst, final int dstOffset,
        final int length) {
        get(toRank, srcAddress, dst, dstOffset, length, Waits.NO_DEADLINE);
    }

    /**
     * As {@link #get(int, long, MutableDirectBuffer, int, int)}, giving up after {@code timeout}.
     *
     * @param toRank     the rank, not this one
     * @param srcAddress a global address on that rank
     * @param dst        where the bytes go
     * @param dstOffset  index in {@code dst} of the first
     * @param length     bytes, at least 0
     * @param timeout    the longest wait, {@code <= 0} for none
     * @param unit       its unit
     * @throws TimeoutException if a reply did not come in time ({@code dst} may hold part of the bytes)
     */
    public void get(final int toRank, final long srcAddress, final MutableDirectBuffer dst, final int dstOffset,
        final int length, final long timeout, final TimeUnit unit) throws TimeoutException {
        if (!get(toRank, srcAddress, dst, dstOffset, length, Waits.deadline(timeout, unit))) {
            throw new TimeoutException("no reply to a get from rank " + toRank + " within " + timeout + " " + unit);
        }
    }

    /**
     * @param toRank     the rank, not this one
     * @param srcAddress a global address on that rank
     * @return the {@code long} (native order) at {@code srcAddress} on rank {@code toRank}
     */
    public long getLong(final int toRank, final long srcAddress) {
        get(toRank, srcAddress, eight, 0, 8);
        return eight.getLong(0);
    }

    private boolean get(final int toRank, final long srcAddress, final MutableDirectBuffer dst, final int dstOffset,
        final int length, final long deadline) {
        Objects.requireNonNull(dst, "dst");
        if (length < 0 || dstOffset < 0 || (long)dstOffset + length > dst.capacity()) {
            throw new IndexOutOfBoundsException(length + " bytes from " + dstOffset + " do not lie in the destination "
                + "buffer of " + dst.capacity() + " bytes");
        }
        final int per = maxGetBytes();
        int done = 0;
        do {
            final int n = Math.min(per, length - done);
            if (request(toRank, DataWire.GET, n, srcAddress + done, n, 0, 0, dst, dstOffset + done, deadline)
                == Long.MIN_VALUE) {
                return false;
            }
            done += n;
        } while (done < length);
        return true;
    }

    /**
     * Sends a FETCH or GET and waits for its reply.
     *
     * @param opOrLength the op code (FETCH) or the byte count (GET)
     * @return the reply's value; {@link Long#MIN_VALUE} for a timed-out wait of a timed form only, when
     *         {@code deadline} is not {@link Waits#NO_DEADLINE} (a fetch's value can be anything else)
     */
    private long request(final int toRank, final int type, final int opOrLength, final long address, final int width,
        final long operand, final long expected, final MutableDirectBuffer dst, final int dstOffset,
        final long deadline) {
        checkUsable();
        checkRank(toRank);
        checkAddress(address, width, type == DataWire.FETCH ? width : 1, type == DataWire.FETCH ? "atomic target"
            : "get source");
        final long s = ++seq;
        box.expect(s);
        Wire.header(head, type, rank, owner.fingerprint());
        head.putLong(DataWire.ADDRESS_OFFSET, address, DataWire.ORDER);
        head.putInt(DataWire.OP_OFFSET, opOrLength, DataWire.ORDER);
        head.putInt(DataWire.ENDPOINT_OFFSET, index, DataWire.ORDER);
        final int length;
        if (type == DataWire.FETCH) {
            head.putLong(DataWire.OPERAND_OFFSET, operand, DataWire.ORDER);
            head.putLong(DataWire.EXPECTED_OFFSET, expected, DataWire.ORDER);
            head.putLong(DataWire.FETCH_SEQ_OFFSET, s, DataWire.ORDER);
            length = DataWire.FETCH_LENGTH;
        } else {
            head.putLong(DataWire.GET_SEQ_OFFSET, s, DataWire.ORDER);
            length = DataWire.GET_LENGTH;
        }
        final String what = (type == DataWire.FETCH ? "a fetching atomic on rank " : "a get from rank ") + toRank;
        if (!sendFixed(toRank, length, deadline, what)) {
            return Long.MIN_VALUE;
        }
        idle.reset();
        while (!box.hasArrived(s)) {
            if (!waitOnce(toRank, deadline, "the reply to " + what)) {
                return Long.MIN_VALUE;
            }
        }
        if (dst != null) {
            box.copyTo(dst, dstOffset, opOrLength);
        }
        return box.value();
    }

    private long timed(final long value, final String what) throws TimeoutException {
        if (value == Long.MIN_VALUE && !box.hasArrived(seq)) {
            throw new TimeoutException("no reply to " + what + " in time");
        }
        return value;
    }

    // ---------------------------------------------------------------------------------------------- quiet

    /**
     * Waits until everything this endpoint sent has been applied at its destinations (each rank's report of what it
     * applied reaches the end of this endpoint's last message to it).
     *
     * @throws PeerFailedException      if a rank failed
     * @throws InterruptedWaitException if interrupted
     */
    public void quiet() {
        quiet(Waits.NO_DEADLINE);
    }

    /**
     * As {@link #quiet()}, giving up after {@code timeout}.
     *
     * @param timeout the longest wait, {@code <= 0} for none
     * @param unit    its unit
     * @return true if everything was applied in time
     */
    public boolean quiet(final long timeout, final TimeUnit unit) {
        return quiet(Waits.deadline(timeout, unit));
    }

    private boolean quiet(final long deadline) {
        checkUsable();
        for (int r = 0; r < ranks; r++) {
            idle.reset();
            while (lastPosition[r] > owner.appliedThrough(r)) {
                if (!waitOnce(r, deadline, "rank " + r + " to apply what " + this + " sent")) {
                    return false;
                }
            }
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------------- sending

    /** Sends a fixed-size message composed in {@link #head}, waiting on back-pressure; false if it timed out. */
    private boolean sendFixed(final int toRank, final int length, final long deadline, final String what) {
        idle.reset();
        while (true) {
            final long r = send(toRank, length, head, 0, 0, 1);
            if (r > 0) {
                return true;
            }
            if (!retry(r, toRank, deadline, what)) {
                return false;
            }
        }
    }

    /**
     * One attempt: {@code headLength} bytes of {@link #head} then {@code dataLength} bytes of {@code data} (items of
     * {@code itemBytes}, turned little-endian), claimed in the publication's log when they fit a frame, else offered
     * (Aeron fragments them).
     *
     * @return the new stream position, or an {@link OfferResult} code with nothing sent
     */
    private long send(final int toRank, final int headLength, final DirectBuffer data, final int dataOffset,
        final int dataLength, final int itemBytes) {
        final Publication p = owner.publication(toRank);
        final int length = headLength + dataLength;
        long r;
        if (length <= p.maxPayloadLength()) {
            r = p.tryClaim(length, claim);
            if (r > 0) {
                final MutableDirectBuffer b = claim.buffer();
                final int at = claim.offset();
                b.putBytes(at, head, 0, headLength);
                if (dataLength > 0) {
                    DataWire.putItems(b, at + headLength, data, dataOffset, dataLength / itemBytes, itemBytes);
                }
                claim.commit();
            }
        } else if (itemBytes == 1 || java.nio.ByteOrder.nativeOrder() == DataWire.ORDER) {
            r = p.offer(head, 0, headLength, data, dataOffset, dataLength);
        } else { // a large batch on a big-endian host: turned little-endian in a scratch buffer first
            final UnsafeBuffer scratch = new UnsafeBuffer(new byte[dataLength]);
            DataWire.putItems(scratch, 0, data, dataOffset, dataLength / itemBytes, itemBytes);
            r = p.offer(head, 0, headLength, scratch, 0, dataLength);
        }
        if (r > 0) {
            lastPosition[toRank] = r;
            return r;
        }
        if (r == Publication.NOT_CONNECTED) {
            owner.peerGone(toRank, "a send"); // records the failure for the waits
            return OfferResult.NOT_CONNECTED;
        }
        return r == Publication.CLOSED ? OfferResult.CLOSED : r;
    }

    /**
     * After a send that was not taken: decides whether to try again.
     *
     * @return true to retry; false if the deadline passed
     */
    private boolean retry(final long result, final int toRank, final long deadline, final String what) {
        if (result == OfferResult.NOT_CONNECTED) {
            owner.checkFailure();
            throw owner.peerGone(toRank, what);
        }
        if (result == OfferResult.CLOSED) {
            closedError();
        }
        if (result == OfferResult.MAX_POSITION_EXCEEDED) {
            throw new IllegalStateException("the stream of " + owner + " to rank " + toRank + " reached its largest "
                + "position: close the transport and build a new one");
        }
        return waitOnce(toRank, deadline, what); // BACK_PRESSURED or ADMIN_ACTION
    }

    /** One round of a wait: checks failure, interrupt and deadline, drains the home inbox, idles. */
    private boolean waitOnce(final int toRank, final long deadline, final String what) {
        owner.checkFailure();
        if (owner.isClosed()) {
            closedError();
        }
        if (Thread.interrupted()) {
            throw Waits.interrupted(what);
        }
        if (Waits.remaining(deadline) <= 0) {
            return false;
        }
        final int work = home.drain();
        idle.idle(work);
        return true;
    }

    // ---------------------------------------------------------------------------------------------- checks

    /** Every operation that may wait starts here: a closed endpoint or transport, or a failed rank, throws. */
    private void checkUsable() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        owner.checkOpen();
        owner.checkFailure();
    }

    private void closedError() {
        throw new IllegalStateException(closed ? this + " is closed" : owner + " is closed");
    }

    private void checkRank(final int toRank) {
        if (toRank < 0 || toRank >= ranks) {
            throw new IllegalArgumentException("rank " + toRank + " does not exist: the group has ranks 0.."
                + (ranks - 1));
        }
        if (toRank == rank) {
            throw new IllegalArgumentException("rank " + toRank + " is this rank: reach its devices through the local "
                + "transport's Endpoint");
        }
    }

    private void checkDevice(final int device) {
        if (device < 0 || device >= devices) {
            throw new IllegalArgumentException("device " + device + " does not exist: every rank has devices 0.."
                + (devices - 1));
        }
    }

    private void checkAddress(final long address, final int length, final int alignment, final String what) {
        final int device = GlobalAddress.device(address);
        final long offset = GlobalAddress.offset(address);
        checkDevice(device);
        if (offset + length > owner.memoryPerDevice()) {
            throw new IllegalArgumentException(what + " " + GlobalAddress.toString(address) + " + " + length
                + " bytes is outside the device's " + owner.memoryPerDevice() + " bytes of memory");
        }
        if (offset % alignment != 0) {
            throw new IllegalArgumentException(what + " " + GlobalAddress.toString(address) + " is not aligned to "
                + alignment + " bytes");
        }
    }

    /** Closes this endpoint: later operations throw, {@code tryOffer} answers {@code CLOSED}. Idempotent. */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "HostEndpoint{" + index + " of rank " + rank + ", home dev" + homeDevice + (closed ? ", closed" : "")
            + "}";
    }
}
