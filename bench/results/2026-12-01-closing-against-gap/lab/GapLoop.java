package dev.overlap.graph.solo;

import dev.overlap.graph.CsrGraph;
import java.util.Arrays;

/** GAP's delta-stepping at one thread, written in Java over heap arrays: the per-thread ceiling of Java for it. */
final class GapLoop {
    final int n; final long[] off; final int[] tgt; final int[] wgt; final int[] pairs;
    int[][] bins = new int[64][]; int[] sizes = new int[64];
    GapLoop(CsrGraph g) {
        n = g.vertexCount(); off = new long[n + 1]; g.copyOffsets(0, off, 0, n + 1);
        int m = (int) g.edgeCount(); tgt = new int[m]; wgt = new int[m]; g.copyTargets(0, tgt, 0, m); g.copyWeights(0, wgt, 0, m);
        pairs = new int[2 * m]; for (int e = 0; e < m; e++) { pairs[2 * e] = tgt[e]; pairs[2 * e + 1] = wgt[e]; }
    }
    void push(int b, int v) {
        if (b >= bins.length) { bins = Arrays.copyOf(bins, Math.max(b + 1, bins.length * 2)); sizes = Arrays.copyOf(sizes, bins.length); }
        int[] a = bins[b]; int s = sizes[b];
        if (a == null) a = bins[b] = new int[64]; else if (s == a.length) a = bins[b] = Arrays.copyOf(a, s * 2);
        a[s] = v; sizes[b] = s + 1;
    }
    long[] visited = new long[1];
    int[] run(int source, int delta, boolean interleaved) {
        int[] dist = new int[n]; Arrays.fill(dist, Integer.MAX_VALUE / 2);
        Arrays.fill(sizes, 0);
        dist[source] = 0;
        int[] frontier = new int[1]; frontier[0] = source; int tail = 1; int cur = 0;
        long vis = 0;
        while (true) {
            for (int i = 0; i < tail; i++) {
                int u = frontier[i];
                if (dist[u] >= delta * cur) { vis++; if (interleaved) relaxP(u, delta, dist); else relax(u, delta, dist); }
            }
            while (cur < bins.length && sizes[cur] > 0 && sizes[cur] < 1000) {
                int c = sizes[cur]; int[] copy = Arrays.copyOf(bins[cur], c); sizes[cur] = 0;
                for (int i = 0; i < c; i++) { vis++; if (interleaved) relaxP(copy[i], delta, dist); else relax(copy[i], delta, dist); }
            }
            int next = -1;
            for (int i = cur; i < bins.length; i++) if (sizes[i] > 0) { next = i; break; }
            if (next < 0) break;
            int c = sizes[next]; if (frontier.length < c) frontier = new int[Math.max(c, frontier.length * 2)];
            System.arraycopy(bins[next], 0, frontier, 0, c); sizes[next] = 0; tail = c; cur = next;
        }
        visited[0] = vis;
        return dist;
    }
    private void relax(int u, int delta, int[] dist) {
        int du = dist[u];
        for (long e = off[u], end = off[u + 1]; e < end; e++) {
            int v = tgt[(int) e]; int nd = du + wgt[(int) e];
            if (nd < dist[v]) { dist[v] = nd; push(nd / delta, v); }
        }
    }
    private void relaxP(int u, int delta, int[] dist) {
        int du = dist[u];
        for (int e = (int) off[u], end = (int) off[u + 1]; e < end; e++) {
            int v = pairs[2 * e]; int nd = du + pairs[2 * e + 1];
            if (nd < dist[v]) { dist[v] = nd; push(nd / delta, v); }
        }
    }
}
