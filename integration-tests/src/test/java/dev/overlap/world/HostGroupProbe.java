package dev.overlap.world;

import dev.overlap.core.PeerFailedException;
import dev.overlap.hosts.HostGroup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One rank of {@link HostGroupAcrossProcessesTest}, a process of its own: {@code HostGroupProbe HOSTFILE RANK MODE
 * PEER_TIMEOUT_MS}. It joins the group the host file describes (an embedded media driver, its own loopback address),
 * then runs rounds of barriers and reductions and checks every result against what the ranks' values must give.
 * Then, by mode: {@code collectives} meets the others at a last barrier, closes and exits 0; {@code barriers} keeps
 * meeting them at barriers until a peer fails (the test kills one), reporting it.
 *
 * <p>Output: {@code rank R joined}, {@code rank R checked}, then {@code rank R ok} (exit 0), or
 * {@code rank R: <PeerFailedException message>} and {@code rank R waited <ms> ms} (the time from its last completed
 * barrier to the failure, exit 3). A wrong result prints what it got (exit 1).
 */
public final class HostGroupProbe {
    private HostGroupProbe() {
    }

    public static void main(final String[] args) {
        final RankProcesses.LoopbackRank me = new RankProcesses.LoopbackRank(args);
        final int rank = me.rank;
        final String mode = me.mode;
        final long peerTimeoutMillis = me.peerTimeoutMillis;
        final int n = me.hosts.ranks();
        long lastBarrier = System.nanoTime();
        try (HostGroup group = me.join()) {
            System.out.println("rank " + rank + " joined");
            for (int round = 0; round < 50; round++) {
                group.barrier();
                expect(rank, round, "sum", (long)n * round + (long)n * (n - 1) / 2, group.allReduceSum(round + rank));
                expect(rank, round, "max", round + 10L * (n - 1), group.allReduceMax(round + 10L * rank));
                final long[] v = {1, rank, -rank * (long)round};
                group.allReduceSum(v);
                expect(rank, round, "sums", Arrays.toString(new long[] {n, n * (n - 1L) / 2,
                    -round * (n * (n - 1L) / 2)}), Arrays.toString(v));
                group.checkSame("the round", round);
            }
            System.out.println("rank " + rank + " checked");
            if (mode.equals("barriers")) {
                while (true) {
                    group.barrier();
                    lastBarrier = System.nanoTime();
                }
            }
            group.barrier();
            System.out.println("rank " + rank + " ok");
        } catch (final PeerFailedException e) {
            System.out.println("rank " + rank + ": " + e.getMessage());
            System.out.println("rank " + rank + " waited " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                - lastBarrier) + " ms");
            System.exit(3);
        }
    }

    private static void expect(final int rank, final int round, final String what, final Object expected,
        final Object got) {
        if (!expected.equals(got)) {
            System.out.println("rank " + rank + " round " + round + ": " + what + " " + got + ", expected " + expected);
            System.exit(1);
        }
    }
}
