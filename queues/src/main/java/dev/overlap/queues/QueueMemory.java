package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.LongArray;
import org.agrona.concurrent.AtomicBuffer;

/** Checks and allocates the device-memory regions queues live in. */
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
        final LongArray words = device.allocateLongs((bytes + 128 + 7) / 8);
        final long aligned = (words.offset() + 127) & ~127L;
        return new Allocation(device, words, device.memory().slice(aligned, bytes));
    }

    static final class Allocation {
        final Device device;
        final LongArray words;
        final AtomicBuffer region;

        Allocation(final Device device, final LongArray words, final AtomicBuffer region) {
            this.device = device;
            this.words = words;
            this.region = region;
        }

        void free() {
            device.free(words);
        }
    }
}
