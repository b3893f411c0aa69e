package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceRegion;
import org.agrona.concurrent.AtomicBuffer;

/** Checks and allocates the device-memory regions queues live in, and answers for their lifetime. */
final class QueueMemory {
    private QueueMemory() {
    }

    /** @throws IllegalArgumentException naming what is wrong with {@code region} */
    static void checkRegion(final AtomicBuffer region, final int requiredBytes, final String what) {
        if (region == null) {
            throw new NullPointerException("region");
        }
        if (region.capacity() < requiredBytes) {
            throw new IllegalArgumentException(what + " needs a region of at least " + requiredBytes
                + " bytes, the one given has " + region.capacity());
        }
        try {
            region.verifyAlignment();
        } catch (final IllegalStateException e) {
            throw new IllegalArgumentException(what + " needs an 8-byte aligned region: " + e.getMessage(), e);
        }
    }

    /** A region of {@code bytes} in {@code device}'s memory whose start is 128-byte aligned. */
    static Allocation allocate(final Device device, final int bytes) {
        if (device == null) {
            throw new NullPointerException("device");
        }
        final DeviceRegion region = device.allocate(bytes, 128);
        return new Allocation(region, region.buffer(device.id()));
    }

    /** A queue's own device memory. */
    static final class Allocation {
        final DeviceRegion region;
        final AtomicBuffer buffer;

        Allocation(final DeviceRegion region, final AtomicBuffer buffer) {
            this.region = region;
            this.buffer = buffer;
        }
    }

    /*
     * A queue's hold on its memory: the device region it owns (null when it was built over a caller's buffer, whose
     * lifetime is the caller's) and its name for messages, kept as two final fields of the queue itself so that the
     * check on every operation is one field load and a null test when the queue does not own its memory (an Owner
     * object in between, one more dependent load, measurably slowed the single-item ring; see
     * bench/results/2026-11-25-issue15-safety-cost).
     */

    /** @return the region a queue built over {@code allocation} owns, or null when it was built over a caller's buffer */
    static DeviceRegion owned(final Allocation allocation) {
        return allocation != null ? allocation.region : null;
    }

    /**
     * The one place a queue's lifetime is checked, on every operation.
     *
     * @throws IllegalStateException naming the queue if its own memory was freed
     */
    static void check(final DeviceRegion owned, final String name) {
        if (owned != null && owned.isFreed()) {
            owned.checkLive(name);
        }
    }

    /** @return true once the queue's own memory was freed (by its free() or its mesh's close) */
    static boolean isFreed(final DeviceRegion owned) {
        return owned != null && owned.isFreed();
    }

    /**
     * Frees a queue's own memory, once.
     *
     * @throws IllegalStateException if the queue does not own its memory, or it was already freed
     */
    static void free(final DeviceRegion owned, final String name) {
        if (owned == null) {
            throw new IllegalStateException(name + " was built over a caller's region; free that region instead");
        }
        owned.checkLive(name);
        owned.close();
    }
}
