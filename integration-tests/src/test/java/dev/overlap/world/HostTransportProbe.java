package dev.overlap.world;

import dev.overlap.core.IntArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.SymmetricArray;
import dev.overlap.hosts.HostEndpoint;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One rank of {@link HostTransportAcrossProcessesTest}, a process of its own: {@code HostTransportProbe HOSTFILE RANK
 * MODE PEER_TIMEOUT_MS}. It joins the group (an embedded media driver on its own loopback address), builds a mesh of
 * two devices, a transport and the host transport, then by mode: {@code data} pushes {@value #ITEMS} items to each
 * device of every other rank (batches within a frame, fragmented and split ones), adds to a counter on each, puts a
 * block of bytes into each and gets it back, waits in {@code quiet()}, meets the others at a barrier and checks what
 * arrived here: every item of every sender exactly once and in order, the counter, every sender's bytes;
 * {@code send} keeps pushing to every other rank (with a {@code quiet()} per round) until a peer fails.
 *
 * <p>Output: {@code rank R ready}, then {@code rank R ok} (exit 0) or what was wrong (exit 1); or, in {@code send}
 * mode, {@code rank R sending}, {@code rank R: <PeerFailedException message>} and {@code rank R waited <ms> ms} (from
 * its last completed round to the failure, exit 3).
 */
public final class HostTransportProbe {
    static final int ITEMS = 30_000;
    static final int ADDS = 500;
    static final int BLOCK = 20_000;
    private static final int QUEUE = 1;

    private HostTransportProbe() {
    }

    public static void main(final String[] args) {
        final RankProcesses.LoopbackRank me = new RankProcesses.LoopbackRank(args);
        final int rank = me.rank;
        final String mode = me.mode;
        final long peerTimeoutMillis = me.peerTimeoutMillis;
        final int n = me.hosts.ranks();
        // by sender rank and device: the next sequence number expected (items arrive in order, each once)
        final AtomicIntegerArray next = new AtomicIntegerArray(n * 2);
        final AtomicReference<String> wrong = new AtomicReference<>();
        long lastRound = System.nanoTime();
        try (HostGroup group = me.join();
             Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
             Transport transport = Transport.builder().mesh(mesh).ringCapacity(1 << 16).progressThread(true)
                 .build()) {
            for (int d = 0; d < 2; d++) {
                final int dev = d;
                transport.registerHandler(d, QUEUE, ItemType.INT, (queue, sender, items, offset, count) -> {
                    for (int i = 0; i < count; i++) {
                        final int v = items.getInt(offset + 4 * i);
                        final int from = v >>> 24;
                        final int seq = v & 0xFFFFFF;
                        if (from >= n || from == rank || next.get(from * 2 + dev) != seq) {
                            wrong.compareAndSet(null, "dev" + dev + " got item " + Integer.toHexString(v)
                                + (from < n ? ", expected sequence " + next.get(from * 2 + dev) : ""));
                        } else {
                            next.set(from * 2 + dev, seq + 1);
                        }
                    }
                });
            }
            final SymmetricArray<IntArray> counter = mesh.allocateInts(16);
            final long block = mesh.allocateSymmetric((long)BLOCK * n, 128).offset();
            try (HostTransport ht = HostTransport.builder(group, transport).build()) {
                final HostEndpoint ep = ht.newEndpoint(0);
                System.out.println("rank " + rank + " ready");
                if (mode.equals("send")) {
                    final UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(4 * 256));
                    int seq = 0;
                    while (true) {
                        for (int to = 0; to < n; to++) {
                            if (to != rank) {
                                for (int i = 0; i < 256; i++) {
                                    src.putInt(4 * i, rank << 24 | (seq + i) & 0xFFFFFF);
                                }
                                ep.offerBlocking(to, 0, QUEUE, ItemType.INT, src, 0, 256);
                            }
                        }
                        seq += 256; // the same sequence to every rank: each checks its own
                        ep.quiet();
                        if (seq == 256) {
                            System.out.println("rank " + rank + " sending");
                        }
                        lastRound = System.nanoTime();
                    }
                }
                send(rank, n, ep, counter, block);
                ep.quiet();
                group.barrier(); // every rank's quiet: everything sent to this rank is applied here
                check(rank, n, next, wrong.get(), counter, mesh, block);
                group.barrier(); // nobody closes while another still checks (nothing is sent meanwhile)
            }
            System.out.println("rank " + rank + " ok");
        } catch (final PeerFailedException e) {
            System.out.println("rank " + rank + ": " + e.getMessage());
            System.out.println("rank " + rank + " waited " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                - lastRound) + " ms");
            System.exit(3);
        }
    }

    private static void send(final int rank, final int n, final HostEndpoint ep, final SymmetricArray<IntArray> counter,
        final long block) {
        final UnsafeBuffer src = new UnsafeBuffer(ByteBuffer.allocateDirect(4 * 3000));
        final int[] sizes = {1, 9, 250, 1200, 3000};
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[BLOCK]);
        for (int i = 0; i < BLOCK; i++) {
            bytes.putByte(i, (byte)(rank * 37 + i));
        }
        final UnsafeBuffer back = new UnsafeBuffer(new byte[BLOCK]);
        for (int to = 0; to < n; to++) {
            if (to == rank) {
                continue;
            }
            for (int dev = 0; dev < 2; dev++) {
                int round = 0;
                for (int seq = 0; seq < ITEMS; ) {
                    final int k = Math.min(sizes[round++ % sizes.length], ITEMS - seq);
                    for (int i = 0; i < k; i++) {
                        src.putInt(4 * i, rank << 24 | (seq + i));
                    }
                    if (k <= ep.maxBatchItems(ItemType.INT) && round % 2 == 0) {
                        while (ep.tryOffer(to, dev, QUEUE, ItemType.INT, src, 0, k) < 0) {
                            Thread.onSpinWait(); // back-pressure: try again
                        }
                    } else {
                        ep.offerBlocking(to, dev, QUEUE, ItemType.INT, src, 0, k);
                    }
                    seq += k;
                }
            }
            for (int i = 0; i < ADDS; i++) {
                ep.atomic(to, RemoteAtomic.INT_ADD, counter.on(1).address(0), 1);
            }
            final int previous = (int)ep.fetch(to, RemoteAtomic.INT_ADD, counter.on(1).address(1), 1);
            if (previous < 0 || previous >= n) {
                throw new IllegalStateException("fetch-add on rank " + to + " answered " + previous);
            }
            final long at = dev.overlap.core.GlobalAddress.of(0, block + (long)BLOCK * rank);
            ep.put(to, at, bytes, 0, BLOCK);
            ep.get(to, at, back, 0, BLOCK);
            for (int i = 0; i < BLOCK; i++) {
                if (back.getByte(i) != bytes.getByte(i)) {
                    throw new IllegalStateException("the get from rank " + to + " differs at byte " + i);
                }
            }
        }
    }

    private static void check(final int rank, final int n, final AtomicIntegerArray next, final String wrong,
        final SymmetricArray<IntArray> counter, final Mesh mesh, final long block) {
        final StringBuilder errors = new StringBuilder(wrong == null ? "" : wrong + "; ");
        for (int from = 0; from < n; from++) {
            for (int dev = 0; dev < 2 && from != rank; dev++) {
                if (next.get(from * 2 + dev) != ITEMS) {
                    errors.append("dev").append(dev).append(" got ").append(next.get(from * 2 + dev))
                        .append(" items from rank ").append(from).append("; ");
                }
            }
            for (int i = 0; i < BLOCK && from != rank; i++) {
                if (mesh.memory(0).buffer().getByte((int)(block + (long)BLOCK * from + i)) != (byte)(from * 37 + i)) {
                    errors.append("the bytes rank ").append(from).append(" put differ at ").append(i).append("; ");
                    break;
                }
            }
        }
        if (counter.on(1).get(0) != ADDS * (n - 1) || counter.on(1).get(1) != n - 1) {
            errors.append("counters ").append(counter.on(1).get(0)).append(' ').append(counter.on(1).get(1));
        }
        if (errors.length() > 0) {
            System.out.println("rank " + rank + " wrong: " + errors);
            System.exit(1);
        }
    }
}
