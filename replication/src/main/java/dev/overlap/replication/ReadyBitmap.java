package dev.overlap.replication;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A bitmap of ready chunks shared by the producers that mark chunks ready and the polling transfer threads that
 * claim them. {@link #set} is an atomic OR; {@link #claim} clears one set bit with a CAS, so each set bit is
 * claimed by exactly one poller.
 *
 * <p>Memory ordering: {@code set} and {@code claim} are volatile read-modify-writes, so everything the setter did
 * before {@code set} (the chunk's data, made visible to it by the readiness counter) happens-before whatever the
 * claimer does after a successful claim. Thread-safety: any number of setters and claimers.
 */
public final class ReadyBitmap {
    private final AtomicLongArray words;
    private final int bits;

    /** @param bits number of chunks, > 0 */
    public ReadyBitmap(final int bits) {
        if (bits <= 0) {
            throw new IllegalArgumentException("bits must be > 0, was " + bits);
        }
        this.bits = bits;
        this.words = new AtomicLongArray((bits + 63) >>> 6);
    }

    /** @return number of bits */
    public int size() {
        return bits;
    }

    /**
     * Marks {@code bit} ready.
     *
     * @param bit a chunk bit, 0 .. the constructor's {@code bits} - 1
     */
    public void set(final int bit) {
        final int w = checkBit(bit) >>> 6;
        final long mask = 1L << bit;
        long cur;
        do {
            cur = words.get(w);
        } while ((cur & mask) == 0 && !words.compareAndSet(w, cur, cur | mask));
    }

    /**
     * @param bit a chunk bit, 0 .. the constructor's {@code bits} - 1
     * @return true when {@code bit} is set (volatile read)
     */
    public boolean isSet(final int bit) {
        return (words.get(checkBit(bit) >>> 6) & (1L << bit)) != 0;
    }

    /**
     * Claims one set bit, scanning words from {@code fromWord} and wrapping around.
     *
     * @param fromWord where to start scanning (spreads pollers over the map); any int
     * @return the claimed bit (now clear), or -1 if none was set
     */
    public int claim(final int fromWord) {
        final int n = words.length();
        final int start = Math.floorMod(fromWord, n);
        for (int i = 0; i < n; i++) {
            final int w = start + i < n ? start + i : start + i - n;
            long cur = words.get(w);
            while (cur != 0) {
                final long lowest = cur & -cur;
                if (words.compareAndSet(w, cur, cur & ~lowest)) {
                    return (w << 6) + Long.numberOfTrailingZeros(lowest);
                }
                cur = words.get(w);
            }
        }
        return -1;
    }

    private int checkBit(final int bit) {
        if (bit < 0 || bit >= bits) {
            throw new IndexOutOfBoundsException("bit " + bit + " outside 0.." + (bits - 1));
        }
        return bit;
    }
}
