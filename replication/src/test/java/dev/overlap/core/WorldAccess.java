package dev.overlap.core;

/** Test access to a world's package-private parts, for the tests of a rank that hangs. */
public final class WorldAccess {
    private WorldAccess() {
    }

    /** Stops {@code world}'s monitor: the rank's process lives on, but its heartbeat stops (a hung process). */
    public static void stopMonitor(final World world) {
        world.monitorForTest().stop();
    }
}
