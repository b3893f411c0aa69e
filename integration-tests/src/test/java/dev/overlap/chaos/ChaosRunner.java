package dev.overlap.chaos;

import dev.overlap.core.DeviceArray;
import dev.overlap.core.DoubleArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.KernelFailedException;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.OfferResult;
import dev.overlap.core.SymmetricArray;
import dev.overlap.queues.CounterRingQueue;
import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.Publication;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.TaskFailedException;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.replication.ReplicatedRegion;
import dev.overlap.replication.TransferMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one chaos script (see {@link ChaosPropertyTest}) in its own JVM: a sequence of public calls on a mesh and
 * what is built on it, in whatever order the script says, including the wrong ones. It keeps a model of what must
 * hold (the values written into live arrays, the elements in each queue, the items sent through the transport) and
 * prints one line per step ({@code OK}, {@code DOC <exception>} for a documented refusal, {@code BAD} for anything
 * else) and a last line {@code VERDICT OK} or {@code VERDICT FAIL <reason>}. A JVM crash shows as the process's
 * exit code; a hang as the parent's timeout.
 */
public final class ChaosRunner {
    /** Exceptions the public API documents for misuse, interrupts, timeouts and failing user code. */
    private static final Set<Class<?>> DOCUMENTED = Set.of(IllegalStateException.class,
        IllegalArgumentException.class, IndexOutOfBoundsException.class, KernelFailedException.class,
        InterruptedWaitException.class, TimeoutException.class, TaskFailedException.class, ExecutionException.class,
        UnsupportedOperationException.class);
    private static final int Q = 0;

    private final List<String> failures = new ArrayList<>();
    private final StringBuilder log = new StringBuilder();
    private Mesh mesh;
    private int meshes;
    private long nextValue = 1;
    /** The release of "slow" kernels; replaced by RELEASE. */
    private volatile CountDownLatch gate = new CountDownLatch(1);

    private final List<Held> arrays = new ArrayList<>();
    private final List<KernelLaunch> launches = new ArrayList<>();
    private final List<QueueModel> queues = new ArrayList<>();
    private Transport transport;
    private Endpoint endpoint;
    private IntAggregator aggregator;
    private final Map<Integer, Integer> received = new ConcurrentHashMap<>();
    private final Set<Integer> sent = ConcurrentHashMap.newKeySet();
    private DistributedWorklist worklist;
    private ReplicatedRegion region;
    private long regionIteration;

    /** An array (one device's view, or a symmetric array's views) with the values the script wrote into it. */
    private static final class Held {
        final DeviceArray local;
        final SymmetricArray<? extends DeviceArray> symmetric;
        final Map<Integer, Long> written = new HashMap<>();
        boolean freed;

        Held(final DeviceArray local, final SymmetricArray<? extends DeviceArray> symmetric) {
            this.local = local;
            this.symmetric = symmetric;
        }

        DeviceArray view() {
            return local != null ? local : symmetric.on(0);
        }
    }

    /** A queue under test and the elements it must hold, in order. */
    private static final class QueueModel {
        final CounterRingQueue<Long> heap;
        final IntCounterRing ring;
        final ArrayDeque<Long> expected = new ArrayDeque<>();
        boolean gone;

        QueueModel(final CounterRingQueue<Long> heap, final IntCounterRing ring) {
            this.heap = heap;
            this.ring = ring;
        }
    }

    public static void main(final String[] args) throws IOException {
        final ChaosRunner runner = new ChaosRunner();
        final List<String> script = Files.readAllLines(Path.of(args[0]));
        runner.run(script);
    }

    private void run(final List<String> script) {
        newMesh();
        int i = 0;
        for (final String line : script) {
            final String[] f = line.trim().split(" ");
            if (f.length < 4) {
                continue;
            }
            final Op op = Op.valueOf(f[0]);
            final int a = Integer.parseInt(f[1]);
            final int b = Integer.parseInt(f[2]);
            final int c = Integer.parseInt(f[3]);
            String outcome;
            try {
                step(op, a, b, c);
                outcome = "OK";
            } catch (final Throwable t) {
                outcome = classify(t);
            }
            log.append("step ").append(i++).append(' ').append(line).append(": ").append(outcome).append('\n');
        }
        try {
            finish();
        } catch (final Throwable t) {
            final String c = classify(t);
            if (c.startsWith("BAD")) {
                failures.add("finish: " + c);
            }
        }
        System.out.print(log);
        System.out.println(failures.isEmpty() ? "VERDICT OK" : "VERDICT FAIL " + String.join(" | ", failures));
        System.out.flush();
        System.exit(0);
    }

    private String classify(final Throwable t) {
        if (DOCUMENTED.contains(t.getClass()) || t instanceof InterruptedWaitException) {
            return "DOC " + t.getClass().getSimpleName() + ": " + firstLine(t.getMessage());
        }
        if (t instanceof NullPointerException && t.getMessage() != null && t.getMessage().contains("null")) {
            return "DOC NullPointerException: " + firstLine(t.getMessage()); // a supplier's null, as documented
        }
        final java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        failures.add("undocumented " + t);
        return "BAD " + w.toString().replace('\n', '|');
    }

    private static String firstLine(final String s) {
        if (s == null) {
            return "";
        }
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private void newMesh() {
        mesh = Mesh.builder().name("chaos" + meshes++).devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20)
            .build();
        transport = null;
        endpoint = null;
        aggregator = null;
        worklist = null;
        region = null;
    }

    private <T> T pick(final List<T> list, final int index) {
        if (list.isEmpty()) {
            return null;
        }
        return list.get(Math.floorMod(index, list.size()));
    }

    private void step(final Op op, final int a, final int b, final int c) throws Exception {
        switch (op) {
            case MESH_NEW:
                if (mesh.isClosed()) {
                    newMesh();
                }
                break;
            case MESH_CLOSE:
                gate.countDown();
                mesh.close();
                break;
            case ALLOC_LOCAL: {
                final int dev = Math.floorMod(a, 2);
                final int len = 1 + Math.floorMod(b, 512);
                final DeviceArray arr = Math.floorMod(c, 3) == 0 ? mesh.device(dev).allocateInts(len)
                    : Math.floorMod(c, 3) == 1 ? mesh.device(dev).allocateLongs(len) : mesh.device(dev).allocateDoubles(len);
                arrays.add(new Held(arr, null));
                break;
            }
            case ALLOC_SYM: {
                final int len = 1 + Math.floorMod(b, 512);
                arrays.add(new Held(null, Math.floorMod(c, 2) == 0 ? mesh.allocateInts(len) : mesh.allocateLongs(len)));
                break;
            }
            case FREE: {
                final Held h = pick(arrays, a);
                if (h == null) {
                    break;
                }
                if (h.local != null) {
                    try {
                        h.local.region().mesh().device(h.local.device()).free(h.local);
                    } finally {
                        h.freed = true;
                    }
                } else {
                    h.symmetric.close();
                    h.freed = true;
                }
                break;
            }
            case FREE_WRONG: {
                final Held h = pick(arrays, a);
                if (h != null) {
                    final DeviceArray v = h.view();
                    // through the other device, or a symmetric view through its device: both must be refused
                    final int dev = h.local != null ? 1 - v.device() : v.device();
                    v.region().mesh().device(dev).free(v);
                    failures.add("FREE_WRONG was accepted for " + v);
                }
                break;
            }
            case ACCESS:
                access(pick(arrays, a), b, c);
                break;
            case LAUNCH:
                launch(Math.floorMod(a, 2), 1 + Math.floorMod(b, 64), Math.floorMod(c, 4));
                break;
            case JOIN: {
                final KernelLaunch l = pick(launches, a);
                if (l != null) {
                    if (Math.floorMod(b, 3) == 0) {
                        l.get(500, TimeUnit.MILLISECONDS);
                    } else {
                        l.join(Math.floorMod(b, 50), TimeUnit.MILLISECONDS);
                    }
                }
                break;
            }
            case INTERRUPT_JOIN:
                interruptJoin(pick(launches, a));
                break;
            case SYNC:
                mesh.device(Math.floorMod(a, 2)).synchronize(Math.floorMod(b, 100), TimeUnit.MILLISECONDS);
                break;
            case RELEASE:
                gate.countDown();
                gate = new CountDownLatch(1);
                break;
            case QUEUE_NEW: {
                final int cap = 1 + Math.floorMod(b, 64);
                switch (Math.floorMod(a, 3)) {
                    case 0:
                        queues.add(new QueueModel(new CounterRingQueue<>(cap), null));
                        break;
                    case 1:
                        queues.add(new QueueModel(new CounterRingQueue<>(cap, 1, Publication.WINDOWED), null));
                        break;
                    default:
                        queues.add(new QueueModel(null, IntCounterRing.allocate(mesh.device(Math.floorMod(c, 2)), cap)));
                        break;
                }
                break;
            }
            case QUEUE_OFFER:
                queueOffer(pick(queues, a), Math.floorMod(b, 40));
                break;
            case QUEUE_POLL:
                queuePoll(pick(queues, a), Math.floorMod(b, 40));
                break;
            case QUEUE_FILL:
                queueFill(pick(queues, a), Math.floorMod(b, 40), Math.floorMod(c, 50));
                break;
            case QUEUE_DRAIN:
                queueDrain(pick(queues, a), Math.floorMod(b, 40));
                break;
            case QUEUE_CHECK:
                queueCheck(pick(queues, a));
                break;
            case QUEUE_FREE: {
                final QueueModel q = pick(queues, a);
                if (q != null && q.ring != null) {
                    try {
                        q.ring.free();
                    } finally {
                        q.gone = true;
                    }
                }
                break;
            }
            case TRANSPORT_NEW:
                if (transport == null || transport.isClosed()) {
                    transport = null;
                    final Transport t = Transport.builder().mesh(mesh).ringCapacity(1 << 14)
                        .progressThread(Math.floorMod(a, 2) == 0).build();
                    transport = t;
                    t.registerHandler(1, Q, ItemType.INT, (queue, sender, items, offset, count) -> {
                        for (int i = 0; i < count; i++) {
                            received.merge(items.getInt(offset + 4 * i), 1, Integer::sum);
                        }
                    });
                    endpoint = t.newEndpoint(0);
                    aggregator = endpoint.intAggregator(1, Q, AggregatorConfig.batched(256, 1_000_000));
                }
                break;
            case TRANSPORT_SEND:
                if (aggregator != null) {
                    for (int i = 0, n = Math.floorMod(b, 100); i < n; i++) {
                        final int v = (int)nextValue++;
                        aggregator.offerBlocking(v);
                        sent.add(v);
                    }
                }
                break;
            case TRANSPORT_GET:
                if (endpoint != null) {
                    final Held h = pick(arrays, a);
                    if (h != null && h.symmetric != null && h.view() instanceof LongArray) {
                        endpoint.getLong(h.symmetric.on(1).address(Math.floorMod(b, h.symmetric.length())), 1,
                            TimeUnit.SECONDS);
                    }
                }
                break;
            case TRANSPORT_CLOSE:
                if (transport != null) {
                    transport.close();
                }
                break;
            case WORKLIST_RUN:
                worklistRun(Math.floorMod(b, 300), Math.floorMod(c, 2) == 0 ? KernelMode.PERSISTENT : KernelMode.DISCRETE,
                    Math.floorMod(a, 4) == 0);
                break;
            case WORKLIST_CLOSE:
                if (worklist != null) {
                    final DistributedWorklist w = worklist;
                    worklist = null;
                    w.close();
                }
                break;
            case REGION_ITER:
                regionIteration(Math.floorMod(c, 5) == 0);
                break;
            case REGION_CLOSE:
                if (region != null) {
                    region.close();
                }
                break;
            case CONCURRENT_CLOSE:
                concurrentClose();
                break;
            default:
                throw new AssertionError(op);
        }
    }

    private void access(final Held h, final int index, final int value) {
        if (h == null) {
            return;
        }
        final DeviceArray v = h.view();
        final int i = Math.floorMod(index, v.length() + 2) - 1; // -1 and length are out of bounds on purpose
        final long x = nextValue++;
        if (h.freed || v.region().mesh().isClosed()) {
            try {
                read(v, Math.max(0, Math.min(i, v.length() - 1)));
            } catch (final IllegalStateException refused) {
                return; // the documented answer to a use after free or after the mesh closed
            }
            failures.add("read " + v + " after it was freed (or its mesh closed): accepted");
            return;
        }
        if (v instanceof IntArray) {
            ((IntArray)v).set(i, (int)x);
        } else if (v instanceof LongArray) {
            ((LongArray)v).set(i, x);
        } else {
            ((DoubleArray)v).set(i, x);
        }
        h.written.put(i, x);
        final long back = read(v, i);
        if (back != x) {
            failures.add("wrote " + x + " to " + v + "[" + i + "], read " + back);
        }
    }

    private static long read(final DeviceArray v, final int i) {
        if (v instanceof IntArray) {
            return ((IntArray)v).get(i);
        }
        if (v instanceof LongArray) {
            return ((LongArray)v).get(i);
        }
        return (long)((DoubleArray)v).get(i);
    }

    private void launch(final int dev, final int grid, final int kind) {
        final CountDownLatch g = gate;
        final KernelLaunch l;
        switch (kind) {
            case 0:
                l = mesh.device(dev).launch(grid, (ctx, block) -> { });
                break;
            case 1:
                l = mesh.device(dev).launch(grid, (ctx, block) -> {
                    throw new IllegalStateException("chaos: block " + block + " fails");
                });
                break;
            case 2:
                l = mesh.device(dev).launch(1, (ctx, block) -> {
                    try {
                        g.await(2, TimeUnit.SECONDS); // a bound, not a synchronisation: RELEASE or close opens it
                    } catch (final InterruptedException e) {
                        throw new InterruptedWaitException("the chaos gate");
                    }
                });
                break;
            default:
                l = mesh.device(dev).launch(1, (ctx, block) -> ctx.device().launch(1, (c2, b2) -> { }).join());
                break;
        }
        launches.add(l);
    }

    private void interruptJoin(final KernelLaunch l) throws InterruptedException {
        if (l == null) {
            return;
        }
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final Thread t = new Thread(() -> {
            try {
                l.join(3, TimeUnit.SECONDS);
            } catch (final Throwable e) {
                thrown.set(e);
            }
        }, "chaos-joiner");
        t.start();
        while (t.isAlive() && t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        t.interrupt();
        t.join();
        final Throwable e = thrown.get();
        if (e != null && !classify(e).startsWith("DOC")) {
            failures.add("interrupted join threw " + e);
        }
    }

    /** @return true if the ring is gone (freed, or its mesh closed) and refused a use, as it must */
    private boolean refusedWhenGone(final QueueModel q) {
        if (q.ring == null || !(q.gone || q.ring.isFreed())) {
            return false;
        }
        final long result = q.ring.offer(1); // a non-blocking offer answers CLOSED (OfferResult), never throws
        if (result != OfferResult.CLOSED) {
            failures.add("offer to " + describe(q) + " after it was freed: " + OfferResult.describe(result));
        }
        try {
            q.ring.poll(-1);
        } catch (final IllegalStateException refused) {
            return true;
        }
        failures.add("poll of " + describe(q) + " after it was freed: accepted");
        return true;
    }

    private void queueOffer(final QueueModel q, final int n) {
        if (q == null || refusedWhenGone(q)) {
            return;
        }
        for (int i = 0; i < n; i++) {
            final long v = nextValue++;
            final boolean ok = q.heap != null ? q.heap.offer(v) : q.ring.offer((int)v) >= 0;
            if (ok) {
                q.expected.add(v);
            }
        }
    }

    private void queuePoll(final QueueModel q, final int n) {
        if (q == null) {
            return;
        }
        for (int i = 0; i < n; i++) {
            final Long got;
            if (q.heap != null) {
                got = q.heap.poll();
            } else {
                final int r = q.ring.poll(Integer.MIN_VALUE);
                got = r == Integer.MIN_VALUE ? null : (long)r;
            }
            expectNext(q, got);
        }
    }

    private void expectNext(final QueueModel q, final Long got) {
        final Long want = q.expected.poll();
        if (got == null ? want != null : !got.equals(want)) {
            failures.add("queue " + describe(q) + " returned " + got + ", the model says " + want);
        }
    }

    private void queueFill(final QueueModel q, final int n, final int failAt) {
        if (q == null || q.heap == null) {
            return;
        }
        final int[] supplied = {0};
        final List<Long> pushed = new ArrayList<>();
        try {
            q.heap.fill(() -> {
                if (supplied[0] == failAt) {
                    if ((failAt & 1) == 0) {
                        return null;
                    }
                    throw new IllegalStateException("chaos supplier fails at " + failAt);
                }
                supplied[0]++;
                final long v = nextValue++;
                pushed.add(v);
                return v;
            }, n);
        } finally {
            q.expected.addAll(pushed);
        }
    }

    private void queueDrain(final QueueModel q, final int n) {
        if (q == null) {
            return;
        }
        if (q.heap != null) {
            q.heap.drain(e -> expectNext(q, e), n);
        } else {
            final int[] dst = new int[Math.max(1, n)];
            final int k = q.ring.poll(dst, 0, n);
            for (int i = 0; i < k; i++) {
                expectNext(q, (long)dst[i]);
            }
        }
    }

    private void queueCheck(final QueueModel q) {
        if (q == null) {
            return;
        }
        final int size = q.heap != null ? q.heap.size() : q.ring.size();
        if (size != q.expected.size()) {
            failures.add("queue " + describe(q) + " says size " + size + ", the model holds " + q.expected.size());
        }
        final boolean empty = q.heap != null ? q.heap.isEmpty() : q.ring.isEmpty();
        if (empty != q.expected.isEmpty()) {
            failures.add("queue " + describe(q) + " says isEmpty " + empty + " with " + q.expected.size() + " elements");
        }
    }

    private static String describe(final QueueModel q) {
        return q.heap != null ? "CounterRingQueue(" + q.heap.publication() + ")" : "IntCounterRing";
    }

    private void worklistRun(final int chain, final KernelMode mode, final boolean timed) throws TimeoutException {
        if (worklist == null || mesh.isClosed()) {
            worklist = DistributedWorklist.builder(mesh).queueCapacity(1 << 10).ringCapacity(1 << 14).build();
        }
        final AtomicIntegerArray runs = new AtomicIntegerArray(chain + 1);
        worklist.seed(0, 0);
        final WorklistStats stats;
        final dev.overlap.worklist.TaskFunction f = (task, ctx) -> {
            runs.incrementAndGet(task);
            if (task < chain) {
                ctx.pushTo(1 - ctx.device(), task + 1);
            }
        };
        stats = timed ? worklist.run(WorkerShape.THREAD, mode, f, null, 2, TimeUnit.SECONDS)
            : worklist.run(WorkerShape.THREAD, mode, f);
        for (int t = 0; t <= chain; t++) {
            if (runs.get(t) != 1) {
                failures.add("worklist task " + t + " ran " + runs.get(t) + " times in a completed run");
                break;
            }
        }
        if (stats.tasks() != chain + 1) {
            failures.add("worklist ran " + stats.tasks() + " tasks for a chain of " + (chain + 1));
        }
    }

    private void regionIteration(final boolean fail) {
        if (region == null || mesh.isClosed()) {
            region = ReplicatedRegion.builder(mesh).elements(1 << 10).gridSize(4).mode(TransferMode.TRIGGERED)
                .chunkBytes(1024).transferThreads(1).build();
            regionIteration = 0;
        }
        final ReplicatedRegion r = region;
        final long tag = ++regionIteration * 1_000_003L;
        for (int d = 0; d < 2; d++) {
            final int dev = d;
            final int per = (int)(r.sliceLength(dev) / 4);
            r.launch(dev, (ctx, block) -> {
                if (fail && dev == 1 && block == 2) {
                    throw new IllegalStateException("chaos: region block fails");
                }
                for (int i = 0; i < per; i++) {
                    final int e = (int)r.sliceStart(dev) + block * per + i;
                    r.putLong(dev, e, tag + e);
                }
            });
        }
        if (r.awaitTransfers(5, TimeUnit.SECONDS)) {
            for (int d = 0; d < 2; d++) {
                for (int e = 0; e < r.length(); e += 97) {
                    if (r.getLong(d, e) != tag + e) {
                        failures.add("replica dev" + d + "[" + e + "] is " + r.getLong(d, e) + ", not " + (tag + e));
                        return;
                    }
                }
            }
        }
    }

    /** Closes the mesh from another thread while this one keeps using arrays and device rings: only refusals. */
    private void concurrentClose() throws InterruptedException {
        final Mesh m = mesh;
        gate.countDown();
        final Thread closer = new Thread(() -> {
            try {
                m.close();
            } catch (final KernelFailedException expected) {
                // an unjoined failure of the script, reported by the close as documented
            }
        }, "chaos-closer");
        closer.start();
        while (closer.isAlive()) {
            for (final Held h : arrays) {
                try {
                    read(h.view(), 0);
                } catch (final IllegalStateException | IndexOutOfBoundsException refused) {
                    // freed or closed: the documented answer
                }
            }
            for (final QueueModel q : queues) {
                if (q.ring != null) {
                    try {
                        q.ring.size();
                    } catch (final IllegalStateException refused) {
                        // freed or closed
                    }
                }
            }
        }
        closer.join();
    }

    /** The end of the script: every live thing must still hold exactly what the model says. */
    private void finish() {
        gate.countDown();
        for (final Held h : arrays) {
            if (h.freed || h.view().region().isFreed()) {
                continue;
            }
            for (final Map.Entry<Integer, Long> e : h.written.entrySet()) {
                final long v = read(h.view(), e.getKey());
                if (v != e.getValue()) {
                    failures.add(h.view() + "[" + e.getKey() + "] holds " + v + ", last written " + e.getValue()
                        + " (aliased by another allocation?)");
                }
            }
        }
        for (final QueueModel q : queues) {
            if (q.gone || (q.ring != null && q.ring.isFreed())) {
                continue;
            }
            queueCheck(q);
            queuePoll(q, q.expected.size() + 1);
        }
        if (transport != null && !mesh.isClosed()) {
            transport.close();
        }
        if (worklist != null && !mesh.isClosed()) {
            worklist.close();
        }
        try {
            mesh.close();
        } catch (final KernelFailedException reported) {
            // unjoined failures of the script: reported, as documented
        }
        for (final Map.Entry<Integer, Integer> e : received.entrySet()) {
            if (e.getValue() != 1) {
                failures.add("transport item " + e.getKey() + " delivered " + e.getValue() + " times");
            }
        }
        for (final Integer v : sent) {
            if (!received.containsKey(v)) {
                failures.add("transport item " + v + " was accepted but never delivered");
                break;
            }
        }
    }

    /** The calls a script is made of. */
    enum Op {
        MESH_NEW, MESH_CLOSE, ALLOC_LOCAL, ALLOC_SYM, FREE, FREE_WRONG, ACCESS, LAUNCH, JOIN, INTERRUPT_JOIN, SYNC,
        RELEASE, QUEUE_NEW, QUEUE_OFFER, QUEUE_POLL, QUEUE_FILL, QUEUE_DRAIN, QUEUE_CHECK, QUEUE_FREE, TRANSPORT_NEW,
        TRANSPORT_SEND, TRANSPORT_GET, TRANSPORT_CLOSE, WORKLIST_RUN, WORKLIST_CLOSE, REGION_ITER, REGION_CLOSE,
        CONCURRENT_CLOSE
    }
}
