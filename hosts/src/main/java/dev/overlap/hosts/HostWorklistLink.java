package dev.overlap.hosts;

import dev.overlap.transport.ItemType;
import dev.overlap.worklist.RankLink;
import org.agrona.DirectBuffer;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The distributed worklist across hosts: {@link RankLink} over a {@link HostTransport} (a worker's batches for
 * another rank's device travel as batch messages of a {@link HostEndpoint} into that device's inbox, where the
 * worklist's handler queues them) and its {@link HostGroup} (the collectives of the global termination check).
 *
 * <pre>{@code
 * try (HostGroup group = HostGroup.builder(hosts, rank).join();
 *      Mesh mesh = Mesh.builder().devices(2).build();
 *      Transport transport = Transport.builder().mesh(mesh).build();
 *      HostTransport ht = HostTransport.builder(group, transport).build();
 *      DistributedWorklist wl = DistributedWorklist.builder(mesh).transport(transport)
 *          .ranks(new HostWorklistLink(ht)).build()) {             // collective
 *     if (rank == 0) wl.seed(0, source);
 *     wl.run(WorkerShape.WARP, KernelMode.PERSISTENT, (v, ctx) -> ctx.pushToRank(ownerRank(v), ownerDevice(v), v));
 * }
 * }</pre>
 *
 * <p>The worklist module defines the interface and the hosts module implements it, so the worklist depends on no
 * network library and this module adds no dependency to it. Each worker gets its own {@link HostEndpoint} (made at
 * its first run, closed with the host transport). Thread-safety: {@link #sender} from any thread; the collectives
 * from one host thread at a time (the group's rule).
 */
public final class HostWorklistLink implements RankLink {
    private final HostTransport transport;
    private final HostGroup group;

    /** @param transport the host transport over the worklist's own transport (the same mesh) */
    public HostWorklistLink(final HostTransport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.group = transport.group();
    }

    @Override
    public int rank() {
        return transport.rank();
    }

    @Override
    public int ranks() {
        return transport.ranks();
    }

    @Override
    public int devicesPerRank() {
        return transport.devicesPerRank();
    }

    @Override
    public RankSender sender(final int homeDevice) {
        return new Sender(transport.newEndpoint(homeDevice));
    }

    @Override
    public boolean allReduceSum(final long[] values, final long timeout, final TimeUnit unit) {
        return group.allReduceSum(values, timeout, unit);
    }

    @Override
    public void barrier() {
        group.barrier();
    }

    @Override
    public void checkPeers() {
        group.checkPeers();
    }

    @Override
    public String toString() {
        return "HostWorklistLink{rank " + rank() + " of " + ranks() + "}";
    }

    /** One worker's sender: its own endpoint (single-threaded, as the endpoint is). */
    private static final class Sender implements RankSender {
        private final HostEndpoint endpoint;

        Sender(final HostEndpoint endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public int maxBatchItems(final int itemBytes) {
            return endpoint.maxBatchItems(type(itemBytes));
        }

        @Override
        public void send(final int rank, final int device, final int queueId, final int itemBytes,
            final DirectBuffer items, final int count) {
            endpoint.offerBlocking(rank, device, queueId, type(itemBytes), items, 0, count);
        }

        @Override
        public void quiet() {
            endpoint.quiet();
        }

        private static ItemType type(final int itemBytes) {
            return itemBytes == 8 ? ItemType.LONG : ItemType.INT;
        }
    }
}
