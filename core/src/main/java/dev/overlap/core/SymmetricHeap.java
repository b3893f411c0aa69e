package dev.overlap.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * First-fit allocator over the devices' memories. A symmetric allocation reserves the same offset on every
 * device (like {@code nvshmem_malloc}); a local one reserves a range on one device. Allocation is a set-up
 * operation, not a hot path: methods are synchronized.
 */
final class SymmetricHeap {
    private final long capacity;
    /** Local allocations from the top, so they never move the offsets of symmetric ones (a world of processes). */
    private final boolean localsFromTop;
    /** Per device: free ranges start -> end (exclusive), coalesced. */
    private final List<TreeMap<Long, Long>> free = new ArrayList<>();
    /** Per device: allocated start -> length. */
    private final List<Map<Long, Long>> allocated = new ArrayList<>();

    SymmetricHeap(final int devices, final long capacity, final boolean localsFromTop) {
        this.capacity = capacity;
        this.localsFromTop = localsFromTop;
        for (int d = 0; d < devices; d++) {
            final TreeMap<Long, Long> f = new TreeMap<>();
            f.put(0L, capacity);
            free.add(f);
            allocated.add(new HashMap<>());
        }
    }

    static void checkAllocation(final long bytes, final int alignment) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("allocation size must be positive, was " + bytes);
        }
        if (alignment <= 0 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment must be a positive power of two, was " + alignment);
        }
    }

    synchronized long allocateSymmetric(final long bytes, final int alignment) {
        checkAllocation(bytes, alignment);
        List<long[]> common = ranges(free.get(0));
        for (int d = 1; d < free.size(); d++) {
            common = intersect(common, ranges(free.get(d)));
        }
        final long offset = firstFit(common, bytes, alignment);
        if (offset < 0) {
            throw outOfMemory("symmetric allocation", -1, bytes, alignment);
        }
        for (int d = 0; d < free.size(); d++) {
            reserve(d, offset, bytes);
        }
        return offset;
    }

    synchronized long allocateLocal(final int device, final long bytes, final int alignment) {
        checkAllocation(bytes, alignment);
        final long offset = localsFromTop ? lastFit(ranges(free.get(device)), bytes, alignment)
            : firstFit(ranges(free.get(device)), bytes, alignment);
        if (offset < 0) {
            throw outOfMemory("allocation", device, bytes, alignment);
        }
        reserve(device, offset, bytes);
        return offset;
    }

    /** @return the length of the symmetric allocation at {@code offset} */
    synchronized long symmetricLength(final long offset) {
        final Long length = allocated.get(0).get(offset);
        if (length == null) {
            throw new IllegalArgumentException("no symmetric allocation starts at offset " + offset + " (double free?)");
        }
        return length;
    }

    synchronized void freeSymmetric(final long offset) {
        for (int d = 0; d < free.size(); d++) {
            release(d, offset);
        }
    }

    synchronized void freeLocal(final int device, final long offset) {
        release(device, offset);
    }

    synchronized long freeBytes(final int device) {
        long sum = 0;
        for (final Map.Entry<Long, Long> e : free.get(device).entrySet()) {
            sum += e.getValue() - e.getKey();
        }
        return sum;
    }

    private long largestFree(final int device) {
        long max = 0;
        for (final Map.Entry<Long, Long> e : free.get(device).entrySet()) {
            max = Math.max(max, e.getValue() - e.getKey());
        }
        return max;
    }

    private IllegalStateException outOfMemory(final String what, final int device, final long bytes, final int alignment) {
        final StringBuilder sb = new StringBuilder("device memory exhausted: ").append(what).append(" of ")
            .append(bytes).append(" bytes (alignment ").append(alignment).append(") does not fit");
        final int from = device < 0 ? 0 : device;
        final int to = device < 0 ? free.size() - 1 : device;
        for (int d = from; d <= to; d++) {
            sb.append("; dev").append(d).append(": ").append(freeBytes(d)).append(" of ").append(capacity)
                .append(" bytes free, largest free block ").append(largestFree(d));
        }
        if (device < 0) {
            sb.append(" (a symmetric allocation needs the same free range on every device)");
        }
        return new IllegalStateException(sb.toString());
    }

    private static List<long[]> ranges(final TreeMap<Long, Long> f) {
        final List<long[]> list = new ArrayList<>(f.size());
        for (final Map.Entry<Long, Long> e : f.entrySet()) {
            list.add(new long[] {e.getKey(), e.getValue()});
        }
        return list;
    }

    private static List<long[]> intersect(final List<long[]> a, final List<long[]> b) {
        final List<long[]> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            final long lo = Math.max(a.get(i)[0], b.get(j)[0]);
            final long hi = Math.min(a.get(i)[1], b.get(j)[1]);
            if (lo < hi) {
                out.add(new long[] {lo, hi});
            }
            if (a.get(i)[1] < b.get(j)[1]) {
                i++;
            } else {
                j++;
            }
        }
        return out;
    }

    private static long firstFit(final List<long[]> ranges, final long bytes, final int alignment) {
        for (final long[] r : ranges) {
            final long start = (r[0] + alignment - 1) & -(long)alignment;
            if (start + bytes <= r[1]) {
                return start;
            }
        }
        return -1;
    }

    private static long lastFit(final List<long[]> ranges, final long bytes, final int alignment) {
        for (int i = ranges.size() - 1; i >= 0; i--) {
            final long[] r = ranges.get(i);
            final long start = (r[1] - bytes) & -(long)alignment;
            if (start >= r[0] && r[1] - bytes >= 0) {
                return start;
            }
        }
        return -1;
    }

    private void reserve(final int device, final long offset, final long bytes) {
        final TreeMap<Long, Long> f = free.get(device);
        final Map.Entry<Long, Long> block = f.floorEntry(offset);
        final long start = block.getKey();
        final long end = block.getValue();
        f.remove(start);
        if (start < offset) {
            f.put(start, offset);
        }
        if (offset + bytes < end) {
            f.put(offset + bytes, end);
        }
        allocated.get(device).put(offset, bytes);
    }

    private void release(final int device, final long offset) {
        final Long length = allocated.get(device).remove(offset);
        if (length == null) {
            throw new IllegalArgumentException("dev" + device + ": no allocation starts at offset " + offset
                + " (double free?)");
        }
        final TreeMap<Long, Long> f = free.get(device);
        long start = offset;
        long end = offset + length;
        final Map.Entry<Long, Long> before = f.floorEntry(start);
        if (before != null && before.getValue() == start) {
            start = before.getKey();
            f.remove(before.getKey());
        }
        final Long afterEnd = f.get(end);
        if (afterEnd != null) {
            f.remove(end);
            end = afterEnd;
        }
        f.put(start, end);
    }
}
