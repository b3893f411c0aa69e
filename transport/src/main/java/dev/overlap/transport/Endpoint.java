package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.InterruptedWaitException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static dev.overlap.transport.MessageFormat.BATCH_HEADER_LENGTH;
import static dev.overlap.transport.MessageFormat.PUT_HEADER_LENGTH;

/**
 * A sending context bound to one thread and one home device: it owns aggregators (one per destination and queue),
 * issues one-sided remote operations (put, get, remote atomics) and, whenever it has to wait (a full destination
 * ring, a reply, an ordering fence), keeps draining its home device's inbox so that devices sending to each other
 * can never deadlock. Obtain one per worker with {@link Transport#endpoint(dev.overlap.core.WorkerContext)} or for
 * any other thread with {@link Transport#newEndpoint(int)}.
 *
 * <p><b>Thread-safety:</b> single-threaded. An endpoint and its aggregators must be used by one thread at a time,
 * with a happens-before edge (thread start, join, kernel launch/join) when ownership moves. Only its counters may be
 * read from other threads.
 *
 * <p><b>Ordering:</b> everything one endpoint sends to one device takes effect there in issue order: batches (in
 * the order they are flushed; items of an aggregator in offer order), puts, atomics and gets. Ring messages are FIFO;
 * an operation that takes the direct path first waits until this endpoint's earlier ring messages to that device
 * have been applied (see {@link DirectPolicy}). Nothing is promised between different endpoints, or between an item
 * still pending in an aggregator and other operations.
 *
 * <p><b>Completion and visibility:</b> {@code put} returns when the source may be reused (a small put is copied into
 * the ring; a large one is copied directly into the destination). Remote effects become visible to other threads as
 * plain stores do: publish them with a remote atomic, a release store or a kernel boundary. After {@link #quiet()}
 * every operation issued before it has been applied and its effects are visible to the caller. Blocking gets and
 * fetching atomics return with the remote value as of the moment the destination applied the request.
 *
 * <p><b>Back-pressure:</b> a full ring is never an error and never drops anything: the sender counts a
 * {@link TransportCounter#BACK_PRESSURE_RETRIES retry}, drains its own inbox, idles with its Agrona idle strategy and
 * tries again. Handlers that run during such a wait run on this thread; they must not block on sends themselves
 * (an {@link IllegalStateException} says so if they try).
 *
 * <p><b>Waiting.</b> Every blocking operation (a send on back-pressure, a get or fetching atomic, a fence,
 * {@link #quiet()}) waits the same way: it drains its home inbox, and once it has waited the transport's
 * {@link Transport.Builder#helpAfter help-after} time it also applies the messages waiting in the destination's inbox
 * itself (the UPC helper's job, done by the waiter), so a wait never depends on the destination's own threads or a
 * progress thread: a get to a device that nobody drains completes. Idle rounds use the endpoint's Agrona idle
 * strategy (which parks once its spins and yields are over). An interrupt ends the wait with
 * {@link InterruptedWaitException} (interrupt status kept) and a timed form ({@link #getLong(long, long, TimeUnit)},
 * {@link #get(long, MutableDirectBuffer, int, int, long, TimeUnit)}, {@link #fetch(RemoteAtomic, long, long, long,
 * TimeUnit)}, {@link #quiet(long, TimeUnit)}, the aggregators' timed {@code offer} and {@code flush}) gives up at its
 * deadline ({@link #put(long, DirectBuffer, int, int, long, TimeUnit)}, {@link #putLong(long, long, long,
 * TimeUnit)}, {@link #atomic(RemoteAtomic, long, long, long, TimeUnit)} and {@link #flush(long, TimeUnit)} too).
 * Neither loses anything: a request already sent still takes effect (a get's bytes may still arrive in its
 * destination buffer: {@link #quiet()} waits for that), and an item already handed to an aggregator stays there.
 * While a claim of one of its aggregators is open ({@link BatchClaim}) the endpoint waits for nothing: an operation
 * that would wait throws an {@link IllegalStateException} instead (the open record holds up its destination's inbox).
 *
 * <p><b>Naming.</b> Methods that may wait say so by their form, as {@link java.util.concurrent.BlockingQueue}'s do:
 * the aggregators' {@code tryOffer} and {@code tryClaim} never wait and return {@link dev.overlap.core.OfferResult}
 * codes; the aggregators' {@code offerBlocking} (a blocking queue's {@code put}), and the remote operations,
 * {@code flush} and {@code quiet} here, wait as above (on back-pressure, for a reply or for an ordering fence); the
 * forms that take a timeout wait at most that long. {@code put} is the one-sided remote put, not
 * {@code BlockingQueue.put}.
 */
public final class Endpoint extends EndpointRingSender implements AutoCloseable {
    // This class is the public API and the choice between the ring and the direct path. The fields the send paths
    // touch live in its superclasses (EndpointCounters, EndpointFence, EndpointRingSender: the JCTools field-layout
    // idiom, final methods only), so a direct put/get/atomic or a batch send loads nothing beyond this object and the
    // destination; waits (EndpointWaits), reply slots (ReplySlots) and the aggregators (AggregatorSet) are objects of
    // their own, reached only off those paths.
    private final Inbox home;
    private final DirectPolicy policy;
    private final int rendezvousThreshold;
    private final AggregatorSet aggregators = new AggregatorSet();
    private final ReplySlots slots;

    Endpoint(final Transport transport, final int id, final int device, final IdleStrategy idle,
        final AtomicCounter[] counters, final AtomicBuffer replies, final int replySlots) {
        super(transport, id, device, idle, counters);
        this.home = inboxes[device];
        this.policy = transport.directPolicy();
        this.rendezvousThreshold = transport.rendezvousThreshold();
        this.slots = new ReplySlots(waits, replies, replySlots, transport.ownMemory().replySlotBytes(),
            transport.localDevices());
    }

    /** @return this endpoint's id (carried in every message it sends) */
    public int id() {
        return id;
    }

    /** @return the home device, whose inbox this endpoint drains while it waits */
    public int device() {
        return device;
    }

    /** @return the transport */
    public Transport transport() {
        return transport;
    }

    // ------------------------------------------------------------------------------------------------ aggregators

    /**
     * Creates an aggregator of {@code int} items for queue {@code queueId} on device {@code destination}.
     *
     * @param destination the device whose inbox receives the batches, 0..device count - 1
     * @param queueId the queue the destination's handler was registered for, 0..{@code Transport.Builder.maxQueues} - 1
     * @param config batch size and flushing rule; a batch must fit one message of the destination ring
     * @return the aggregator, owned by this endpoint (closed with it)
     * @throws IllegalArgumentException for a bad device or queue id, or a batch that does not fit one message of the
     *                                  destination ring
     * @throws IllegalStateException    if the destination has no {@code INT} handler for the queue
     */
    public IntAggregator intAggregator(final int destination, final int queueId, final AggregatorConfig config) {
        checkOpen();
        return aggregators.add(new IntAggregator(this, destination, queueId, checkAggregator(destination, queueId,
            ItemType.INT, config), config));
    }

    /**
     * @param destination the device whose inbox receives the batches, 0..device count - 1
     * @param queueId the queue the destination's handler was registered for, 0..{@code Transport.Builder.maxQueues} - 1
     * @param config batch size and flushing rule; a batch must fit one message of the destination ring
     * @return the aggregator, owned by this endpoint (closed with it)
     * @see #intAggregator(int, int, AggregatorConfig)
     */
    public LongAggregator longAggregator(final int destination, final int queueId, final AggregatorConfig config) {
        checkOpen();
        return aggregators.add(new LongAggregator(this, destination, queueId, checkAggregator(destination, queueId,
            ItemType.LONG, config), config));
    }

    private int checkAggregator(final int destination, final int queueId, final ItemType type,
        final AggregatorConfig config) {
        Objects.requireNonNull(config, "config");
        transport.checkDevice(destination);
        transport.checkQueueId(queueId);
        final Dispatcher.Binding binding = inboxes[destination].dispatcher.binding(queueId);
        if (binding == null) {
            throw new IllegalStateException("dev" + destination + " has no handler for queue " + queueId
                + ": register one with Transport.registerHandler(" + destination + ", " + queueId + ", ItemType."
                + type + ", handler) before creating aggregators");
        }
        if (binding.type != type) {
            throw new IllegalStateException("queue " + queueId + " on dev" + destination + " takes " + binding.type
                + " items, not " + type);
        }
        final int max = inboxes[destination].maxMessageLength();
        final int batchBytes = config.isEager() ? BATCH_HEADER_LENGTH + type.bytes() : config.batchBytes();
        if (batchBytes > max) {
            throw new IllegalArgumentException("batchBytes " + batchBytes + " exceeds the largest message dev"
                + destination + "'s inbox accepts: " + max + " bytes (Agrona allows ring capacity / 8; the ring has "
                + inboxes[destination].ringCapacity() + " bytes). Use a ring of at least "
                + AggregatorConfig.smallestRing(batchBytes) + " bytes or a smaller batch");
        }
        return MessageFormat.itemsPerBatch(batchBytes, type);
    }

    /** A closed aggregator leaves the endpoint. */
    void unregister(final Aggregator aggregator) {
        aggregators.remove(aggregator);
    }

    // ---------------------------------------------------------------------------------------------- remote ops

    /**
     * One-sided put of {@code length} bytes of {@code src} to a global address. Returns when {@code src} may be
     * reused: up to the rendezvous threshold the bytes are copied into the destination's inbox (or, as the
     * {@link DirectPolicy} allows, straight into its memory); larger puts are copied straight into the destination
     * memory after this endpoint's earlier ring messages to that device have been applied.
     *
     * @param dstAddress global address ({@link GlobalAddress}) of the first byte written; the range must lie in the
     *                   destination device's memory
     * @param src the bytes to put
     * @param srcOffset index in {@code src} of the first byte
     * @param length bytes to put, >= 0; {@code [srcOffset, srcOffset+length)} must lie in {@code src}
     * @throws IndexOutOfBoundsException if the range is outside the destination memory or {@code src}
     */
    public void put(final long dstAddress, final DirectBuffer src, final int srcOffset, final int length) {
        checkOpen();
        Objects.checkFromIndexSize(srcOffset, length, src.capacity());
        final int dest = transport.checkRange(dstAddress, length, 1, "put destination");
        if (length == 0) {
            return;
        }
        if (length >= rendezvousThreshold || length > inboxes[dest].maxMessageLength() - PUT_HEADER_LENGTH
            || goDirect(dest)) {
            fence(dest);
            transport.memory(dest).putBytes((int)GlobalAddress.offset(dstAddress), src, srcOffset, length);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        sendPut(dest, dstAddress, src, srcOffset, length);
    }

    /**
     * As {@link #put(long, DirectBuffer, int, int)}, waiting at most {@code timeout} for ring space or for earlier
     * messages to be applied.
     *
     * @param dstAddress global address ({@link GlobalAddress}) of the first byte written; the range must lie in the
     *                   destination device's memory
     * @param src the bytes to put
     * @param srcOffset index in {@code src} of the first byte
     * @param length bytes to put, >= 0; {@code [srcOffset, srcOffset+length)} must lie in {@code src}
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return true if the put was issued; false if the wait before it timed out (nothing was sent or written)
     * @throws dev.overlap.core.InterruptedWaitException if interrupted before the put was issued
     */
    public boolean put(final long dstAddress, final DirectBuffer src, final int srcOffset, final int length,
        final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, () -> put(dstAddress, src, srcOffset, length));
    }

    /**
     * As {@link #putLong(long, long)}, waiting at most {@code timeout}.
     *
     * @param dstAddress global address ({@link GlobalAddress}) of the {@code long}, 8-byte aligned
     * @param value the value to put
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return true if the put was issued; false if the wait before it timed out (nothing was sent or written)
     */
    public boolean putLong(final long dstAddress, final long value, final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, () -> putLong(dstAddress, value));
    }

    /**
     * Puts one {@code long} (8-byte aligned address); see {@link #put(long, DirectBuffer, int, int)}.
     *
     * @param dstAddress global address ({@link GlobalAddress}) of the {@code long}, 8-byte aligned
     * @param value the value to put
     */
    public void putLong(final long dstAddress, final long value) {
        checkOpen();
        final int dest = transport.checkRange(dstAddress, 8, 8, "put destination");
        if (8 >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            transport.memory(dest).putLong((int)GlobalAddress.offset(dstAddress), value);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        sendPutLong(dest, dstAddress, value);
    }

    /**
     * Blocking one-sided get of {@code length} bytes at a global address into {@code dst}. Through the ring, the
     * destination (its owner, the progress thread, or a sender waiting on it) copies the bytes straight into
     * {@code dst} and signals this endpoint's reply slot; large gets (and small ones the {@link DirectPolicy}
     * allows) read the remote memory directly after an ordering fence. Drains the home inbox while waiting.
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the first byte read; the range must lie in the source
     *                   device's memory
     * @param dst receives the bytes
     * @param dstOffset index in {@code dst} of the first byte written
     * @param length bytes to get, >= 0; {@code [dstOffset, dstOffset+length)} must lie in {@code dst}
     */
    public void get(final long srcAddress, final MutableDirectBuffer dst, final int dstOffset, final int length) {
        checkOpen();
        Objects.checkFromIndexSize(dstOffset, length, dst.capacity());
        final int dest = transport.checkRange(srcAddress, length, 1, "get source");
        if (length == 0) {
            return;
        }
        if (length >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            dst.putBytes(dstOffset, transport.memory(dest), (int)GlobalAddress.offset(srcAddress), length);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        final int slot = slots.acquire();
        slots.expect(slot, dst, dstOffset, length);
        requestGet(dest, srcAddress, length, slot);
        slots.await(slot);
        slots.release(slot);
    }

    /**
     * As {@link #get(long, MutableDirectBuffer, int, int)}, giving up after {@code timeout}: on a
     * {@link TimeoutException} the request stays outstanding and its bytes may still arrive in {@code dst} (a later
     * {@link #quiet()} waits for them).
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the first byte read; the range must lie in the source
     *                   device's memory
     * @param dst receives the bytes
     * @param dstOffset index in {@code dst} of the first byte written
     * @param length bytes to get, >= 0; {@code [dstOffset, dstOffset+length)} must lie in {@code dst}
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @throws TimeoutException         if the bytes did not arrive in time
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public void get(final long srcAddress, final MutableDirectBuffer dst, final int dstOffset, final int length,
        final long timeout, final TimeUnit unit) throws TimeoutException {
        final long saved = waits.startTimed(timeout, unit);
        try {
            get(srcAddress, dst, dstOffset, length);
        } catch (final WaitTimedOutException e) {
            throw timeout(e);
        } finally {
            waits.restoreDeadline(saved);
        }
    }

    /**
     * As {@link #getLong(long)}, giving up after {@code timeout} (the request then stays outstanding; the value is
     * dropped when it arrives).
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the {@code long}, 8-byte aligned
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return the {@code long} read (volatile) at {@code srcAddress}
     * @throws TimeoutException         if the value did not arrive in time
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public long getLong(final long srcAddress, final long timeout, final TimeUnit unit) throws TimeoutException {
        final long saved = waits.startTimed(timeout, unit);
        try {
            return getLong(srcAddress);
        } catch (final WaitTimedOutException e) {
            throw timeout(e);
        } finally {
            waits.restoreDeadline(saved);
        }
    }

    /**
     * As {@link #fetch(RemoteAtomic, long, long)}, giving up after {@code timeout}: the atomic still takes effect
     * once applied; only its previous value is lost to the caller.
     *
     * @param op the operation (its width says {@code int} or {@code long})
     * @param address global address ({@link GlobalAddress}) of the target, aligned to {@code op}'s width
     * @param operand the operand (truncated to an {@code int} for the {@code INT_} operations)
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return the previous value at {@code address} (sign-extended for the {@code INT_} operations)
     * @throws TimeoutException         if the reply did not arrive in time
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public long fetch(final RemoteAtomic op, final long address, final long operand, final long timeout,
        final TimeUnit unit) throws TimeoutException {
        final long saved = waits.startTimed(timeout, unit);
        try {
            return fetch(op, address, operand);
        } catch (final WaitTimedOutException e) {
            throw timeout(e);
        } finally {
            waits.restoreDeadline(saved);
        }
    }

    /** Runs {@code call} with a deadline; @return false if it timed out. For the aggregators' timed forms. */
    boolean withDeadline(final long timeout, final TimeUnit unit, final Runnable call) {
        return waits.withDeadline(timeout, unit, call);
    }

    private static TimeoutException timeout(final WaitTimedOutException e) {
        return new TimeoutException(e.getMessage());
    }

    /**
     * Blocking get of one {@code long} (8-byte aligned address); see {@link #get(long, MutableDirectBuffer, int, int)}.
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the {@code long}, 8-byte aligned
     * @return the {@code long} read (volatile) at {@code srcAddress}
     */
    public long getLong(final long srcAddress) {
        checkOpen();
        final int dest = transport.checkRange(srcAddress, 8, 8, "get source");
        if (8 >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            add(TransportCounter.DIRECT_OPS, 1);
            return transport.memory(dest).getLongVolatile((int)GlobalAddress.offset(srcAddress));
        }
        final int slot = slots.acquire();
        slots.expectValue(slot);
        requestGet(dest, srcAddress, 8, slot);
        slots.await(slot);
        slots.release(slot);
        return slots.value(slot);
    }

    /**
     * Non-blocking get: the future completes (on this endpoint's thread, inside {@link #poll()}, {@link #quiet()} or
     * another wait of this endpoint) once the bytes are in {@code dst}. {@code dst} must stay untouched until then.
     * Allocates the future; prefer the blocking forms on hot paths.
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the first byte read; the range must lie in the source
     *                   device's memory
     * @param dst receives the bytes
     * @param dstOffset index in {@code dst} of the first byte written
     * @param length bytes to get, >= 0; {@code [dstOffset, dstOffset+length)} must lie in {@code dst}
     * @return a future completed once the bytes are in {@code dst} (already complete for {@code length == 0})
     */
    public CompletableFuture<Void> getAsync(final long srcAddress, final MutableDirectBuffer dst, final int dstOffset,
        final int length) {
        checkOpen();
        Objects.checkFromIndexSize(dstOffset, length, dst.capacity());
        final int dest = transport.checkRange(srcAddress, length, 1, "get source");
        if (length == 0) {
            return CompletableFuture.completedFuture(null);
        }
        if (length >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            dst.putBytes(dstOffset, transport.memory(dest), (int)GlobalAddress.offset(srcAddress), length);
            add(TransportCounter.DIRECT_OPS, 1);
            return CompletableFuture.completedFuture(null);
        }
        final int slot = slots.acquire();
        final CompletableFuture<Void> future = new CompletableFuture<>();
        slots.expect(slot, dst, dstOffset, length);
        requestGet(dest, srcAddress, length, slot);
        slots.async(slot, future);
        return future;
    }

    /** Sends a get through the ring whose reply goes to {@code slot} (its target set). */
    private void requestGet(final int dest, final long srcAddress, final int length, final int slot) {
        final long seq = slots.nextSeq();
        sendGet(dest, srcAddress, length, slot, seq);
        slots.sent(slot, seq, dest);
    }

    /**
     * Remote atomic without a result (e.g. the atomic-min of BFS): returns once the operation is queued in the
     * destination's inbox or, as the {@link DirectPolicy} allows, applied directly.
     *
     * @param op the operation (its width says {@code int} or {@code long})
     * @param address global address ({@link GlobalAddress}) of the target, aligned to {@code op}'s width
     * @param operand the operand (truncated to an {@code int} for the {@code INT_} operations)
     * @throws IllegalArgumentException if the address is not aligned to the operand width
     */
    public void atomic(final RemoteAtomic op, final long address, final long operand) {
        checkOpen();
        final int dest = transport.checkRange(address, op.width(), op.width(), "atomic target");
        if (goDirect(dest)) {
            fence(dest);
            RemoteAtomic.apply(op.code(), transport.memory(dest), (int)GlobalAddress.offset(address), operand, 0);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        sendAtomic(dest, op.code(), address, operand);
    }

    /**
     * As {@link #atomic(RemoteAtomic, long, long)}, waiting at most {@code timeout} for ring space or for earlier
     * messages to be applied.
     *
     * @param op the operation (its width says {@code int} or {@code long})
     * @param address global address ({@link GlobalAddress}) of the target, aligned to {@code op}'s width
     * @param operand the operand (truncated to an {@code int} for the {@code INT_} operations)
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return true if the operation was issued; false if the wait before it timed out (nothing was sent)
     */
    public boolean atomic(final RemoteAtomic op, final long address, final long operand, final long timeout,
        final TimeUnit unit) {
        return withDeadline(timeout, unit, () -> atomic(op, address, operand));
    }

    /**
     * Blocking remote atomic that returns the previous value (ints sign-extended).
     *
     * @param op the operation (its width says {@code int} or {@code long})
     * @param address global address ({@link GlobalAddress}) of the target, aligned to {@code op}'s width
     * @param operand the operand (truncated to an {@code int} for the {@code INT_} operations)
     * @return the previous value at {@code address} (sign-extended for the {@code INT_} operations)
     * @throws IllegalArgumentException if the address is not aligned to the operand width
     */
    public long fetch(final RemoteAtomic op, final long address, final long operand) {
        checkOpen();
        return fetchOp(op.code(), address, operand, 0, op.width());
    }

    /**
     * Blocking remote compare-and-set of an {@code int}.
     *
     * @param address global address ({@link GlobalAddress}) of the {@code int}, 4-byte aligned
     * @param expected the value it must hold
     * @param value the new value
     * @return true if it was {@code expected} (it is now {@code value})
     */
    public boolean compareAndSetInt(final long address, final int expected, final int value) {
        checkOpen();
        return (int)fetchOp(RemoteAtomic.INT_CAS, address, value, expected, 4) == expected;
    }

    /**
     * Blocking remote compare-and-set of a {@code long}.
     *
     * @param address global address ({@link GlobalAddress}) of the {@code long}, 8-byte aligned
     * @param expected the value it must hold
     * @param value the new value
     * @return true if it was {@code expected} (it is now {@code value})
     */
    public boolean compareAndSetLong(final long address, final long expected, final long value) {
        checkOpen();
        return fetchOp(RemoteAtomic.LONG_CAS, address, value, expected, 8) == expected;
    }

    private long fetchOp(final int code, final long address, final long operand, final long expected,
        final int width) {
        final int dest = transport.checkRange(address, width, width, "atomic target");
        if (goDirect(dest)) {
            fence(dest);
            add(TransportCounter.DIRECT_OPS, 1);
            return RemoteAtomic.apply(code, transport.memory(dest), (int)GlobalAddress.offset(address), operand,
                expected);
        }
        final int slot = slots.acquire();
        final long seq = slots.nextSeq();
        sendFetch(dest, code, address, operand, expected, slot, seq);
        slots.sent(slot, seq, dest);
        slots.await(slot);
        return slots.value(slot);
    }

    /** The reply slots, which the drainer applying this endpoint's gets and fetches completes. */
    ReplySlots replySlots() {
        return slots;
    }

    private boolean goDirect(final int dest) {
        switch (policy) {
            case NEVER:
                return false;
            case ALWAYS:
                return true;
            default:
                return !pending(dest);
        }
    }

    /** A timed call's deadline passed inside a wait; the timed methods turn it into their own answer. */
    static final class WaitTimedOutException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WaitTimedOutException(final String waitingFor) {
            super("timed out waiting for " + waitingFor, null, false, false);
        }
    }

    // ---------------------------------------------------------------------------------------------- progress

    /**
     * One step of progress, for the owning thread's loop (e.g. a persistent kernel's poll): drains the home inbox,
     * counts one poll on every aggregator (sending batches whose wait time is up) and completes async gets.
     *
     * @return work done (messages applied, batches sent, gets completed); 0 lets the caller idle
     */
    public int poll() {
        checkOpen();
        int work = home.drain();
        work += aggregators.poll();
        if (slots.hasAsync()) {
            work += slots.pollAsync();
        }
        publishCounters();
        return work;
    }

    /**
     * As {@link #flush()}, waiting at most {@code timeout} for ring space.
     *
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return true if every aggregator's pending items were sent; false if the wait timed out (what was not sent
     *         stays pending)
     */
    public boolean flush(final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, this::flush);
    }

    /** Sends every aggregator's pending items now (blocking on back-pressure). */
    public void flush() {
        checkOpen();
        aggregators.flush(this);
        publishCounters();
    }

    /**
     * Flushes every aggregator, then waits until every message this endpoint has sent has been applied at its
     * destination (draining the home inbox meanwhile) and completes async gets. Afterwards the effects of all earlier
     * operations are visible to the caller.
     */
    public void quiet() {
        flush();
        for (int dest = 0; dest < inboxes.length; dest++) {
            fence(dest);
        }
        if (slots.hasAsync()) {
            slots.pollAsync();
        }
        publishCounters();
    }

    /**
     * As {@link #quiet()}, giving up after {@code timeout}.
     *
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return true if everything was applied in time; false leaves the rest to apply later (nothing is lost)
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public boolean quiet(final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, this::quiet);
    }

    /**
     * @param dest a device
     * @return true if every message this endpoint sent to {@code dest} has been applied (pending aggregator items do
     *         not count: they have not been sent)
     */
    public boolean isQuiet(final int dest) {
        transport.checkDevice(dest);
        return !pending(dest);
    }

    /**
     * A completion token that stays valid while this endpoint keeps sending, where {@link #isQuiet(int)} answers for
     * everything sent so far: every operation issued before this call has taken effect at {@code dest} once
     * {@code transport().inbox(dest).applied(id())} reaches the value returned (operations that took the direct path
     * took effect before they returned; pending aggregator items do not count).
     *
     * @param dest a device
     * @return ring messages this endpoint has sent to {@code dest} so far
     */
    public long ringMessagesSent(final int dest) {
        transport.checkDevice(dest);
        return ringMessagesSentTo(dest);
    }

    /**
     * @param counter a sender counter
     * @return this endpoint's value as last published (acquire load; may be read from any thread, also after the
     *         transport closed, when it answers the final value, and while it closes: such a read passes the
     *         transport's read gate, so it never reads a freed counter): see {@link TransportCounter} for when the
     *         owner publishes
     */
    public long counter(final TransportCounter counter) {
        if (!counter.isSenderCounter()) {
            throw new IllegalArgumentException(counter + " is a receiver counter: read it from an Inbox");
        }
        return transport.ownMemory().senderCounter(this, counter);
    }

    /** Flushes and closes every aggregator; later operations throw. Idempotent. Call from the owning thread. */
    @Override
    public void close() {
        if (closed()) {
            return;
        }
        flushForClose();
        markClosed();
    }

    /** Closes every aggregator (flushing it) and publishes the counters: the endpoint's part of a close. */
    void flushForClose() {
        aggregators.closeAll();
        publishCounters();
    }

    /** @return true once closed */
    public boolean isClosed() {
        return closed();
    }

    @Override
    public String toString() {
        return "Endpoint{" + id + " on dev" + device + ", " + aggregators.size() + " aggregators}";
    }
}
