package dev.overlap.world;

import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.PeerFailedException;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.WorldConfig;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * One rank of {@link MultiProcessWorldTest}, a process of its own: {@code WorldProbe DIR RANKS RANK MODE}. Every rank
 * owns one device; each puts a value into a slot of every device's memory (one-sided, into the other processes'
 * memory), meets the others at a barrier and checks its own device received every rank's value. Then, by mode:
 * {@code ring} closes and exits 0; {@code barriers} keeps meeting the others at barriers until a peer fails (the test
 * kills one), reporting it; {@code die-after-join} halts (as a crash would) right after the check.
 *
 * <p>Output: {@code rank R joined}, {@code rank R checked}, then {@code rank R ok} (exit 0) or
 * {@code rank R: <PeerFailedException message>} (exit 3). Anything else is a test failure (exit 1).
 */
public final class WorldProbe {
    private WorldProbe() {
    }

    public static void main(final String[] args) {
        final Path dir = Path.of(args[0]);
        final int ranks = Integer.parseInt(args[1]);
        final int rank = Integer.parseInt(args[2]);
        final String mode = args[3];
        final WorldConfig world = WorldConfig.sharedMemory(dir, ranks, rank).joinTimeout(60, TimeUnit.SECONDS)
            .peerTimeout(2, TimeUnit.SECONDS).build();
        try (Mesh mesh = Mesh.builder().name("probe" + rank).devices(ranks).threadsPerDevice(1)
            .memoryPerDevice(1 << 20).world(world).build();
             SymmetricArray<LongArray> slots = mesh.allocateLongs(ranks)) {
            System.out.println("rank " + rank + " joined");
            for (int d = 0; d < ranks; d++) {
                slots.on(d).setRelease(rank, 1000L * d + rank); // into device d, whichever process runs it
            }
            mesh.world().barrier();
            for (int r = 0; r < ranks; r++) {
                final long got = slots.on(rank).getAcquire(r);
                if (got != 1000L * rank + r) {
                    System.out.println("rank " + rank + " found " + got + " in slot " + r);
                    System.exit(1);
                }
            }
            System.out.println("rank " + rank + " checked");
            if (mode.equals("die-after-join") && rank == ranks - 1) {
                Runtime.getRuntime().halt(137);
            }
            if (!mode.equals("ring")) {
                while (true) {
                    mesh.world().barrier();
                }
            }
            mesh.world().barrier();
            System.out.println("rank " + rank + " ok");
        } catch (final PeerFailedException e) {
            System.out.println("rank " + rank + ": " + e.getMessage());
            System.exit(3);
        }
    }
}
