package dev.overlap.core;

/**
 * A global address names a byte in some device's memory: {@code (device, offset)} packed into one {@code long}
 * (device in the top 16 bits, offset in the low 48) so that addresses travel through queues and messages
 * without allocation. Stateless; thread-safe.
 */
public final class GlobalAddress {
    /** Largest device id that fits an address. */
    public static final int MAX_DEVICE = 0xFFFF;
    /** Largest offset that fits an address. */
    public static final long MAX_OFFSET = (1L << 48) - 1;

    private GlobalAddress() {
    }

    /**
     * @param device a device id, 0..{@link #MAX_DEVICE}
     * @param offset a byte offset in that device's memory, 0..{@link #MAX_OFFSET}
     * @return the packed address
     */
    public static long of(final int device, final long offset) {
        if (device < 0 || device > MAX_DEVICE) {
            throw new IllegalArgumentException("device must be in 0.." + MAX_DEVICE + ", was " + device);
        }
        if (offset < 0 || offset > MAX_OFFSET) {
            throw new IllegalArgumentException("offset must be in 0.." + MAX_OFFSET + ", was " + offset);
        }
        return ((long)device << 48) | offset;
    }

    /**
     * @param address an address packed by {@link #of(int, long)}
     * @return the device id of a packed address
     */
    public static int device(final long address) {
        return (int)(address >>> 48);
    }

    /**
     * @param address an address packed by {@link #of(int, long)}
     * @return the byte offset of a packed address
     */
    public static long offset(final long address) {
        return address & MAX_OFFSET;
    }

    /**
     * @param address an address packed by {@link #of(int, long)}
     * @return {@code dev<d>+<offset>}, for messages
     */
    public static String toString(final long address) {
        return "dev" + device(address) + "+" + offset(address);
    }
}
