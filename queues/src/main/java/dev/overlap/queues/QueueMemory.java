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

    /**
     * A queue's hold on its memory, and the one place its lifetime is checked: the device region it owns (null when
     * it was built over a caller's buffer, whose lifetime is the caller's) and its name for messages.
     */
    static final class Owner {
        private final DeviceRegion region;
        private final String name;

        Owner(final Allocation allocation, final String name) {
            this.region = allocation != null ? allocation.region : null;
            this.name = name;
        }

        /** @return true once the owned memory was freed (by the queue's free() or its mesh's close) */
        boolean isFreed() {
            return region != null && region.isFreed();
        }

        /** @throws IllegalStateException naming the queue if its memory was freed */
        void check() {
            final DeviceRegion r = region;
            if (r != null && r.isFreed()) {
                r.checkLive(name);
            }
        }

        /**
         * Frees the owned memory, once.
         *
         * @throws IllegalStateException if the queue does not own its memory, or it was already freed
         */
        void free() {
            if (region == null) {
                throw new IllegalStateException(name + " was built over a caller's region; free that region instead");
            }
            region.checkLive(name);
            region.close();
        }
    }
}
