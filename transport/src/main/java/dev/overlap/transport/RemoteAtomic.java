package dev.overlap.transport;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Remote atomic read-modify-write operations on an {@code int} or {@code long} in some device's memory. Applied
 * with sequentially consistent (volatile) atomics of {@link AtomicBuffer}; min and max are CAS loops that do not
 * write when the value would not change. Immutable.
 */
public enum RemoteAtomic {
    /** {@code int} addition. */
    INT_ADD(0, 4),
    /** {@code int} minimum (the remote atomic-min of BFS/SSSP). */
    INT_MIN(1, 4),
    /** {@code int} maximum. */
    INT_MAX(2, 4),
    /** {@code long} addition. */
    LONG_ADD(3, 8),
    /** {@code long} minimum. */
    LONG_MIN(4, 8),
    /** {@code long} maximum. */
    LONG_MAX(5, 8);

    static final int INT_CAS = 6;
    static final int LONG_CAS = 7;
    private static final RemoteAtomic[] BY_CODE = values();

    private final int code;
    private final int width;

    RemoteAtomic(final int code, final int width) {
        this.code = code;
        this.width = width;
    }

    /** @return the operand width in bytes (the address must be aligned to it) */
    public int width() {
        return width;
    }

    int code() {
        return code;
    }

    static int widthOf(final int code) {
        return code == INT_CAS ? 4 : code == LONG_CAS ? 8 : BY_CODE[code].width;
    }

    static boolean isValidCode(final int code) {
        return code >= 0 && code <= LONG_CAS;
    }

    /**
     * Applies operation {@code code} at {@code index} of {@code buffer}.
     *
     * @return the previous value (sign-extended for ints)
     */
    static long apply(final int code, final AtomicBuffer buffer, final int index, final long operand,
        final long expected) {
        switch (code) {
            case 0:
                return buffer.getAndAddInt(index, (int)operand);
            case 1: {
                final int value = (int)operand;
                int current = buffer.getIntVolatile(index);
                while (value < current && !buffer.compareAndSetInt(index, current, value)) {
                    current = buffer.getIntVolatile(index);
                }
                return current;
            }
            case 2: {
                final int value = (int)operand;
                int current = buffer.getIntVolatile(index);
                while (value > current && !buffer.compareAndSetInt(index, current, value)) {
                    current = buffer.getIntVolatile(index);
                }
                return current;
            }
            case 3:
                return buffer.getAndAddLong(index, operand);
            case 4: {
                long current = buffer.getLongVolatile(index);
                while (operand < current && !buffer.compareAndSetLong(index, current, operand)) {
                    current = buffer.getLongVolatile(index);
                }
                return current;
            }
            case 5: {
                long current = buffer.getLongVolatile(index);
                while (operand > current && !buffer.compareAndSetLong(index, current, operand)) {
                    current = buffer.getLongVolatile(index);
                }
                return current;
            }
            case INT_CAS: {
                final int e = (int)expected;
                int current;
                do {
                    current = buffer.getIntVolatile(index);
                } while (current == e && !buffer.compareAndSetInt(index, e, (int)operand));
                return current;
            }
            case LONG_CAS: {
                long current;
                do {
                    current = buffer.getLongVolatile(index);
                } while (current == expected && !buffer.compareAndSetLong(index, expected, operand));
                return current;
            }
            default:
                throw new IllegalArgumentException("unknown remote atomic op code " + code);
        }
    }
}
