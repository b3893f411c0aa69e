import sun.misc.Unsafe;
import java.io.*;
import java.nio.file.*;
import java.util.*;

public class Lab {
    static final Unsafe U;
    static { try { var f = Unsafe.class.getDeclaredField("theUnsafe"); f.setAccessible(true); U = (Unsafe) f.get(null);} catch (Exception e) { throw new Error(e);} }
    static int n; static long m; static long off, tgt; static int[] hoff; static int[] htgt;

    static void load(String file) throws IOException {
        int[] src = new int[1 << 22], dst = new int[1 << 22]; int k = 0; int max = 0;
        try (BufferedReader r = Files.newBufferedReader(Path.of(file))) {
            String line;
            while ((line = r.readLine()) != null) {
                int sp = line.indexOf(' ');
                int a = Integer.parseInt(line.substring(0, sp)), b = Integer.parseInt(line.substring(sp + 1));
                if (k + 2 > src.length) { src = Arrays.copyOf(src, src.length * 2); dst = Arrays.copyOf(dst, dst.length * 2); }
                src[k] = a; dst[k++] = b; src[k] = b; dst[k++] = a; max = Math.max(max, Math.max(a, b));
            }
        }
        n = max + 1; m = k;
        long[] deg = new long[n + 1];
        for (int i = 0; i < k; i++) deg[src[i] + 1]++;
        for (int i = 0; i < n; i++) deg[i + 1] += deg[i];
        off = U.allocateMemory(8L * (n + 1)); tgt = U.allocateMemory(4L * k);
        long[] pos = deg.clone();
        int[] t = new int[k];
        for (int i = 0; i < k; i++) t[(int) pos[src[i]]++] = dst[i];
        // sort each row as the CSR builder does
        for (int v = 0; v < n; v++) Arrays.sort(t, (int) deg[v], (int) deg[v + 1]);
        for (int v = 0; v <= n; v++) U.putLong(off + 8L * v, deg[v]);
        for (int i = 0; i < k; i++) U.putInt(tgt + 4L * i, t[i]);
    }

    // V1: solo style
    static int solo(int s, int[] depth, int[] queue) {
        Arrays.fill(depth, -1); depth[s] = 0; queue[0] = s; int head = 0, tail = 1;
        while (head < tail) { int u = queue[head++]; tail = expand(u, depth, queue, tail); }
        return tail;
    }
    static int expand(int u, int[] depth, int[] queue, int tail) {
        final int next = depth[u] + 1;
        final long from = U.getLong(off + ((long) u << 3));
        final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - from);
        final long at = tgt + (from << 2);
        int t = tail;
        for (int i = 0; i < degree; i++) { int v = U.getInt(at + ((long) i << 2)); if (depth[v] < 0) { depth[v] = next; queue[t++] = v; } }
        return t;
    }

    // V2: level-synchronous, off-heap depth and queue, buffer per worker (coop's shape, 1 worker)
    static final int BUFFER = 4096;
    static final class Lane {
        final int[] buffer = new int[BUFFER]; int held; long claimed, scanned, discovered; long depth, queue; int nextDepth; long tail; long room;
        void expand(int u) {
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            final long edges = tgt + (first << 2);
            for (int from = 0; from < degree; from += BUFFER) {
                final int count = Math.min(BUFFER, degree - from);
                if (count > BUFFER - held) flush();
                claim(edges + ((long) from << 2), count);
            }
            scanned += degree;
        }
        private void claim(long edges, int count) {
            final long depth = this.depth; final int nextD = nextDepth; final int[] buf = buffer; int h = held; long eof = 0;
            for (int e = 0; e < count; e++) {
                final int v = U.getInt(edges + ((long) e << 2));
                final long at = depth + ((long) v << 2);
                final int old = U.getInt(at);
                if (old < 0) { U.putInt(at, nextD); buf[h++] = v; eof += -1 - old; }
            }
            claimed += h - held; held = h; discovered += eof;
        }
        void flush() {
            for (int k = 0; k < held; k++) U.putInt(queue + ((tail + k) << 2), buffer[k]);
            tail += held; held = 0;
        }
    }
    static int coopLike(int s, long depth, long queue, Lane lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1;
            for (long i = base; i < base + size; i++) lane.expand(U.getInt(queue + (i << 2)));
            lane.flush();
            long nsize = lane.tail - base - size;
            base = base + size; size = nsize; level++;
        }
        return (int) (base);
    }


    // V3: coop shape but heap depth (int[]) and heap queue
    static int coopHeap(int s, int[] depth, int[] queue, Lane lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); depth[v] = (int) (-1 - (last - first)); first = last; }
        depth[s] = 0; queue[0] = s;
        int base = 0, size = 1, level = 0; int[] buf = lane.buffer;
        while (size > 0) {
            int tail = base + size; int h = 0; int nextD = level + 1;
            for (int i = base; i < base + size; i++) {
                int u = queue[i];
                final long from = U.getLong(off + ((long) u << 3));
                final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - from);
                if (degree > BUFFER - h) { System.arraycopy(buf, 0, queue, tail, h); tail += h; h = 0; }
                h = claimH(tgt + (from << 2), degree, depth, nextD, buf, h);
            }
            System.arraycopy(buf, 0, queue, tail, h); tail += h;
            int nsize = tail - base - size; base = base + size; size = nsize; level++;
        }
        return base;
    }
    static int claimH(long edges, int count, int[] depth, int nextD, int[] buf, int h) {
        for (int e = 0; e < count; e++) { int v = U.getInt(edges + ((long) e << 2)); if (depth[v] < 0) { depth[v] = nextD; buf[h++] = v; } }
        return h;
    }
    // V4: as V3 but off-heap depth
    static int coopRaw(int s, long depth, int[] queue, Lane lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); queue[0] = s;
        int base = 0, size = 1, level = 0; int[] buf = lane.buffer;
        while (size > 0) {
            int tail = base + size; int h = 0; int nextD = level + 1;
            for (int i = base; i < base + size; i++) {
                int u = queue[i];
                final long from = U.getLong(off + ((long) u << 3));
                final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - from);
                if (degree > BUFFER - h) { System.arraycopy(buf, 0, queue, tail, h); tail += h; h = 0; }
                h = claimR(tgt + (from << 2), degree, depth, nextD, buf, h);
            }
            System.arraycopy(buf, 0, queue, tail, h); tail += h;
            int nsize = tail - base - size; base = base + size; size = nsize; level++;
        }
        return base;
    }
    static int claimR(long edges, int count, long depth, int nextD, int[] buf, int h) {
        for (int e = 0; e < count; e++) { int v = U.getInt(edges + ((long) e << 2)); long at = depth + ((long) v << 2); if (U.getInt(at) < 0) { U.putInt(at, nextD); buf[h++] = v; } }
        return h;
    }
    // V5: solo but level-synchronous (two loops) with heap arrays, queue written directly
    static int soloLevels(int s, int[] depth, int[] queue) {
        Arrays.fill(depth, -1); depth[s] = 0; queue[0] = s; int head = 0, tail = 1;
        while (head < tail) { int end = tail; for (int i = head; i < end; i++) tail = expand(queue[i], depth, queue, tail); head = end; }
        return tail;
    }


    // V6: as raw but off-heap queue, long-counted frontier loop
    static int coopRawQ(int s, long depth, long queue, Lane lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        long base = 0, size = 1; int level = 0; int[] buf = lane.buffer;
        while (size > 0) {
            long tail = base + size; int h = 0; int nextD = level + 1;
            for (long i = base; i < base + size; i++) {
                int u = U.getInt(queue + (i << 2));
                final long from = U.getLong(off + ((long) u << 3));
                final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - from);
                if (degree > BUFFER - h) { for (int k = 0; k < h; k++) U.putInt(queue + ((tail + k) << 2), buf[k]); tail += h; h = 0; }
                h = claimR(tgt + (from << 2), degree, depth, nextD, buf, h);
            }
            for (int k = 0; k < h; k++) U.putInt(queue + ((tail + k) << 2), buf[k]); tail += h;
            long nsize = tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }
    // V7: coop Lane, but expand calls a static claim, no counters
    static final class Lane2 {
        final int[] buffer = new int[BUFFER]; int held; long depth, queue; int nextDepth; long tail;
        void expand(int u) {
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            if (degree > BUFFER - held) flush();
            held = claimR(tgt + (first << 2), degree, depth, nextDepth, buffer, held);
        }
        void flush() { for (int k = 0; k < held; k++) U.putInt(queue + ((tail + k) << 2), buffer[k]); tail += held; held = 0; }
    }
    static int coopLane2(int s, long depth, long queue, Lane2 lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1;
            for (long i = base; i < base + size; i++) lane.expand(U.getInt(queue + (i << 2)));
            lane.flush();
            long nsize = lane.tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }


    static final class Lane3 {
        final int[] buffer = new int[BUFFER]; int held; long depth, queue; int nextDepth; long tail; long discovered; long claimed; long scanned;
        void expand(int u) {
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            if (degree > BUFFER - held) flush();
            claim(tgt + (first << 2), degree);
            scanned += degree;
        }
        private void claim(long edges, int count) {
            final long depth = this.depth; final int nextD = nextDepth; final int[] buf = buffer; int h = held; long eof = 0;
            for (int e = 0; e < count; e++) {
                final int v = U.getInt(edges + ((long) e << 2));
                final long at = depth + ((long) v << 2);
                final int old = U.getInt(at);
                if (old < 0) { U.putInt(at, nextD); buf[h++] = v; eof += -1 - old; }
            }
            claimed += h - held; held = h; discovered += eof;
        }
        void flush() { for (int k = 0; k < held; k++) U.putInt(queue + ((tail + k) << 2), buffer[k]); tail += held; held = 0; }
    }
    static int coopLane3(int s, long depth, long queue, Lane3 lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1;
            for (long i = base; i < base + size; i++) lane.expand(U.getInt(queue + (i << 2)));
            lane.flush();
            long nsize = lane.tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }


    static final class Lane4 {
        final int[] buffer = new int[BUFFER]; int held; long depth, queue; int nextDepth; long tail; long discovered; long claimed; long scanned;
        void expand(int u) {
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            if (degree > BUFFER - held) flush();
            held = claimR(tgt + (first << 2), degree, depth, nextDepth, buffer, held);
            scanned += degree;
        }
        void flush() {
            long d = 0;
            for (int k = 0; k < held; k++) { int v = buffer[k]; d += U.getLong(off + ((long) (v + 1) << 3)) - U.getLong(off + ((long) v << 3)); U.putInt(queue + ((tail + k) << 2), v); }
            discovered += d; claimed += held; tail += held; held = 0; }
    }
    static int coopLane4(int s, long depth, long queue, Lane4 lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1;
            for (long i = base; i < base + size; i++) lane.expand(U.getInt(queue + (i << 2)));
            lane.flush();
            long nsize = lane.tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }


    static long claimE(long edges, int count, long depth, int nextD, int[] buf, int h0) {
        int h = h0; long eof = 0;
        for (int e = 0; e < count; e++) { int v = U.getInt(edges + ((long) e << 2)); long at = depth + ((long) v << 2); int old = U.getInt(at); if (old < 0) { U.putInt(at, nextD); buf[h++] = v; eof += -1 - old; } }
        return (eof << 13) | h;
    }
    static final class Lane5 {
        final int[] buffer = new int[BUFFER]; int held; long depth, queue; int nextDepth; long tail; long discovered; long claimed; long scanned;
        void expand(int u) {
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            if (degree > BUFFER - held) flush();
            long r = claimE(tgt + (first << 2), degree, depth, nextDepth, buffer, held);
            held = (int) (r & 8191); discovered += r >>> 13;
            scanned += degree;
        }
        void flush() {
            for (int k = 0; k < held; k++) { U.putInt(queue + ((tail + k) << 2), buffer[k]); }
            claimed += held; tail += held; held = 0; }
    }
    static int coopLane5(int s, long depth, long queue, Lane5 lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1;
            for (long i = base; i < base + size; i++) lane.expand(U.getInt(queue + (i << 2)));
            lane.flush();
            long nsize = lane.tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }


    static final class Lane6 {
        final int[] buffer = new int[BUFFER]; int held; long claimed, scanned, discovered; long depth, queue; int nextDepth; long tail; boolean counting;
        void expand(final int u) {
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            final long edges = tgt + (first << 2);
            if (degree <= BUFFER - held) { claim(edges, degree); }
            else { for (int from = 0; from < degree; from += BUFFER) { final int count = Math.min(BUFFER, degree - from); if (count > BUFFER - held) flush(); claim(edges + ((long) from << 2), count); } }
            scanned += degree;
        }
        private void claim(final long edges, final int count) { if (counting) claimCounting(edges, count); else claimOnly(edges, count); }
        private void claimOnly(final long edges, final int count) {
            final long depth = this.depth; final int nextD = nextDepth; final int[] buf = buffer; int h = held;
            for (int e = 0; e < count; e++) { final int v = U.getInt(edges + ((long) e << 2)); final long at = depth + ((long) v << 2); if (U.getInt(at) < 0) { U.putInt(at, nextD); buf[h++] = v; } }
            claimed += h - held; held = h;
        }
        private void claimCounting(final long edges, final int count) {
            final long depth = this.depth; final int nextD = nextDepth; final int[] buf = buffer; int h = held; long eof = 0;
            for (int e = 0; e < count; e++) { final int v = U.getInt(edges + ((long) e << 2)); final long at = depth + ((long) v << 2); final int old = U.getInt(at); if (old < 0) { U.putInt(at, nextD); buf[h++] = v; eof += -1 - old; } }
            claimed += h - held; held = h; discovered += eof;
        }
        void flush() { for (int k = 0; k < held; k++) U.putInt(queue + ((tail + k) << 2), buffer[k]); tail += held; held = 0; }
    }
    static long wrap(long p) { return p < n ? p : p - n; }
    static void step6(long base, long size, Lane6 lane, int w, int workers) {
        for (long i = size * w / workers, end = size * (w + 1) / workers; i < end; i++) lane.expand(U.getInt(queue6 + (wrap(base + i) << 2)));
        lane.flush();
    }
    static long queue6;
    static int coopLane6(int s, long depth, long queue, Lane6 lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue; queue6 = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1; lane.counting = false;
            step6(base, size, lane, 0, 1);
            long nsize = lane.tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }

    static final class Lane7 {
        final int[] buffer = new int[BUFFER]; int held; long claimed, scanned, discovered; long depth, queue; int nextDepth; long tail; boolean counting;
        void expand(final int u) {
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            final long edges = tgt + (first << 2);
            if (degree <= BUFFER - held) { claim(edges, degree); }
            else { for (int from = 0; from < degree; from += BUFFER) { final int count = Math.min(BUFFER, degree - from); if (count > BUFFER - held) flush(); claim(edges + ((long) from << 2), count); } }
            scanned += degree;
        }
        private void claim(final long edges, final int count) { if (counting) claimCounting(edges, count); else held = claimR(edges, count, depth, nextDepth, buffer, held); }
        private void claimOnly(final long edges, final int count) {
            final long depth = this.depth; final int nextD = nextDepth; final int[] buf = buffer; int h = held;
            for (int e = 0; e < count; e++) { final int v = U.getInt(edges + ((long) e << 2)); final long at = depth + ((long) v << 2); if (U.getInt(at) < 0) { U.putInt(at, nextD); buf[h++] = v; } }
            claimed += h - held; held = h;
        }
        private void claimCounting(final long edges, final int count) {
            final long depth = this.depth; final int nextD = nextDepth; final int[] buf = buffer; int h = held; long eof = 0;
            for (int e = 0; e < count; e++) { final int v = U.getInt(edges + ((long) e << 2)); final long at = depth + ((long) v << 2); final int old = U.getInt(at); if (old < 0) { U.putInt(at, nextD); buf[h++] = v; eof += -1 - old; } }
            claimed += h - held; held = h; discovered += eof;
        }
        void flush() { claimed += held; for (int k = 0; k < held; k++) U.putInt(queue + ((tail + k) << 2), buffer[k]); tail += held; held = 0; }
    }
    static void step7(long base, long size, Lane7 lane, int w, int workers) {
        for (long i = size * w / workers, end = size * (w + 1) / workers; i < end; i++) lane.expand(U.getInt(queue6 + (wrap(base + i) << 2)));
        lane.flush();
    }
    static int coopLane7(int s, long depth, long queue, Lane7 lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue; queue6 = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1; lane.counting = false;
            step7(base, size, lane, 0, 1);
            long nsize = lane.tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }



    static void step8(long base, long size, Lane6 lane, int w, int workers) {
        final int[] buf = lane.buffer; final long depth = lane.depth; final int nextD = lane.nextDepth; int h = lane.held; long scanned = 0;
        for (long i = size * w / workers, end = size * (w + 1) / workers; i < end; i++) {
            final int u = U.getInt(queue6 + (wrap(base + i) << 2));
            final long first = U.getLong(off + ((long) u << 3));
            final int degree = (int) (U.getLong(off + ((long) (u + 1) << 3)) - first);
            scanned += degree;
            if (degree > BUFFER - h) { lane.held = h; lane.flush(); h = 0; }
            h = claimR(tgt + (first << 2), degree, depth, nextD, buf, h);
        }
        lane.held = h; lane.scanned += scanned;
        lane.flush();
    }
    static int coopLane8(int s, long depth, long queue, Lane6 lane) {
        long first = U.getLong(off);
        for (int v = 0; v < n; v++) { long last = U.getLong(off + ((long) (v + 1) << 3)); U.putInt(depth + ((long) v << 2), (int) (-1 - (last - first))); first = last; }
        U.putInt(depth + ((long) s << 2), 0); U.putInt(queue, s);
        lane.depth = depth; lane.queue = queue; queue6 = queue;
        long base = 0, size = 1; int level = 0;
        while (size > 0) {
            lane.tail = base + size; lane.held = 0; lane.nextDepth = level + 1; lane.counting = false;
            step8(base, size, lane, 0, 1);
            long nsize = lane.tail - base - size; base = base + size; size = nsize; level++;
        }
        return (int) base;
    }

    public static void main(String[] a) throws Exception {
        if (System.getProperty("thread") != null) { Thread t = new Thread(() -> { try { main2(a); } catch (Exception e) { throw new RuntimeException(e); } }); t.start(); t.join(); return; }
        main2(a);
    }
    public static void main2(String[] a) throws Exception {
        load(a[0]); int s = Integer.parseInt(a[1]); String[] variants = a[2].split(",");
        System.out.println("n=" + n + " m=" + m);
        int[] depth = new int[n], queue = new int[n];
        long dOff = U.allocateMemory(4L * n), qOff = U.allocateMemory(4L * n);
        Lane lane = new Lane(); Lane2 lane2 = new Lane2(); Lane3 lane3 = new Lane3(); Lane4 lane4 = new Lane4(); Lane5 lane5 = new Lane5(); Lane6 lane6 = new Lane6(); Lane7 lane7 = new Lane7(); Lane6 lane6b = new Lane6();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        for (int round = 0; round < 30; round++) {
            for (String v : variants) {
                long t0 = System.nanoTime(); int r;
                switch (v) {
                    case "solo": r = solo(s, depth, queue); break;
                    case "coop": r = coopLike(s, dOff, qOff, lane); break;
                    case "rawq": r = coopRawQ(s, dOff, qOff, lane); break;
                    case "lane2": r = coopLane2(s, dOff, qOff, lane2); break;
                    case "lane3": r = coopLane3(s, dOff, qOff, lane3); break;
                    case "lane4": r = coopLane4(s, dOff, qOff, lane4); break;
                    case "lane5": r = coopLane5(s, dOff, qOff, lane5); break;
                    case "lane6": r = coopLane6(s, dOff, qOff, lane6); break;
                    case "lane7": r = coopLane7(s, dOff, qOff, lane7); break;
                    case "lane8": r = coopLane8(s, dOff, qOff, lane6b); break;
                    case "heap": r = coopHeap(s, depth, queue, lane); break;
                    case "raw": r = coopRaw(s, dOff, queue, lane); break;
                    case "levels": r = soloLevels(s, depth, queue); break;
                    default: throw new Error(v);
                }
                double ms = (System.nanoTime() - t0) / 1e6;
                if (round >= 10) times.computeIfAbsent(v, x -> new ArrayList<>()).add(ms);
                if (r != n) throw new Error(v + " reached " + r);
            }
        }
        for (var e : times.entrySet()) { var l = e.getValue(); Collections.sort(l); System.out.printf("%-10s median %.2f min %.2f%n", e.getKey(), l.get(l.size() / 2), l.get(0)); }
    }
}
