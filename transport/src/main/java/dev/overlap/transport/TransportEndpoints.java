package dev.overlap.transport;

import dev.overlap.core.Mesh;
import dev.overlap.core.WorkerContext;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.function.Supplier;

/**
 * One job: the transport's endpoints. It creates them (ids from 0, their sender counters allocated in the transport's
 * counters store and one reply area each,
 * up to {@link Transport.Builder#maxEndpoints}), one per mesh worker up front, finds an endpoint by id for the
 * drainers that answer its gets and fetches, sums the sender counters per home device, and flushes every endpoint
 * for the transport's close.
 *
 * <p>Thread-safety: {@link #create} is synchronized; it stores the endpoint, then publishes the new count (volatile),
 * so a reader that reads the count ({@link #count()}, {@link #senderCounter}) sees every endpoint below it. A
 * drainer finds the sender of a message with {@link #get} without synchronizing: the endpoint was published to the
 * sender's thread before it could send, and the message's commit (a release store) publishes it on to the drainer.
 */
final class TransportEndpoints {
    private final Endpoint[] endpoints;
    /** The mesh workers' endpoints by device and worker index; empty for a standalone transport. */
    private final Endpoint[][] workers;
    private final Supplier<IdleStrategy> idleStrategy;
    private final int replySlots;
    private final String labelPrefix;
    /** The id of this process's first endpoint: 0 in one process, rank x maxEndpoints across processes. */
    private final int base;
    private volatile int count;

    /** @param base the id of the first endpoint (ids are global in a mesh across processes: one range per rank) */
    TransportEndpoints(final int maxEndpoints, final int base, final Mesh mesh,
        final Supplier<IdleStrategy> idleStrategy, final int replySlots, final String labelPrefix) {
        this.base = base;
        this.labelPrefix = labelPrefix;
        this.endpoints = new Endpoint[maxEndpoints];
        this.idleStrategy = idleStrategy;
        this.replySlots = replySlots;
        this.workers = new Endpoint[mesh != null ? mesh.deviceCount() : 0][];
        for (int d = 0; d < workers.length; d++) {
            workers[d] = new Endpoint[mesh.device(d).workerCount()];
        }
    }

    /** Creates the endpoint of every mesh worker (home device = the worker's device). */
    void createWorkerEndpoints(final Transport transport) {
        for (int d = 0; d < workers.length; d++) {
            for (int w = 0; w < workers[d].length; w++) {
                workers[d][w] = create(transport, d);
            }
        }
    }

    /**
     * @return a new endpoint homed on {@code homeDevice}
     * @throws IllegalStateException when every endpoint id is taken
     */
    synchronized Endpoint create(final Transport transport, final int homeDevice) {
        final int local = count;
        final int id = base + local;
        if (local == endpoints.length) {
            throw new IllegalStateException("all " + endpoints.length + " endpoints are in use: raise "
                + "Builder.maxEndpoints");
        }
        final AtomicCounter[] counters = TransportMemory.allocateCounters(transport.ownMemory().counters(), true,
            labelPrefix + " dev" + homeDevice + " endpoint " + id, homeDevice, id);
        final Endpoint endpoint = new Endpoint(transport, id, homeDevice, idleStrategy.get(), counters,
            transport.ownMemory().replyArea(id), replySlots);
        endpoints[local] = endpoint;
        count = local + 1;
        return endpoint;
    }

    /** @return the endpoint of worker {@code ctx} */
    Endpoint worker(final WorkerContext ctx) {
        return workers[ctx.deviceId()][ctx.workerIndex()];
    }

    /**
     * @return endpoint {@code id} (an id carried by a message: it exists), or null for an endpoint of another process
     */
    Endpoint get(final int id) {
        final int local = id - base;
        return local >= 0 && local < endpoints.length ? endpoints[local] : null;
    }

    /** @return this process's {@code index}-th endpoint, 0..{@link #count()}-1 */
    Endpoint local(final int index) {
        return endpoints[index];
    }

    /** @return the index among this process's endpoints of endpoint {@code id} (one of them) */
    int localIndex(final int id) {
        return id - base;
    }

    /** @return how many endpoints this process has */
    int count() {
        return count;
    }

    /** @return the sum of sender counter {@code counter} over the endpoints homed on {@code device} */
    long senderCounter(final int device, final TransportCounter counter) {
        long sum = 0;
        for (int i = 0, n = count; i < n; i++) {
            if (endpoints[i].device() == device) {
                sum += endpoints[i].counter(counter);
            }
        }
        return sum;
    }

    /** Flushes and closes the aggregators of every endpoint (the transport's close). */
    void flushForClose() {
        for (int i = 0, n = count; i < n; i++) {
            endpoints[i].flushForClose();
        }
    }
}
