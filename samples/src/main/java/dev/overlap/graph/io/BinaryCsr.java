package dev.overlap.graph.io;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Overlap's binary CSR file ({@code .bcsr}), written and read by memory-mapping. Little-endian throughout:
 *
 * <pre>
 * offset size  field
 *      0    8  magic "OVLPCSR\0"
 *      8    4  version (1)
 *     12    4  flags: bit 0 weighted, bit 1 symmetric (other bits must be 0)
 *     16    8  n, vertices (0 .. 2^31-2)
 *     24    8  m, edges (0 .. 2^31-9)
 *     32    8  CRC-32C of the payload (everything after the 64-byte header)
 *     40    4  CRC-32C of header bytes 0..39
 *     44   20  zero
 *     64       offsets: n+1 longs
 *              targets: m ints, then 4 zero bytes if m is odd (8-byte alignment)
 *              weights: m ints (+ padding), only when weighted
 * </pre>
 *
 * Reading checks, in order: magic, version, header checksum, flags, exact file length, payload checksum, then the
 * CSR structure ({@link CsrGraph#wrap}); any failure is a {@link GraphFormatException} naming the file and the
 * reason, and no graph is returned. Writing goes to a temporary file in the same directory, moved into place only
 * when complete, so a crash never leaves a half-written file under the target name.
 *
 * <p>Thread-safety: stateless; concurrent calls on different files are safe.
 */
public final class BinaryCsr {
    /** File magic, 8 bytes. */
    static final byte[] MAGIC = "OVLPCSR\0".getBytes(StandardCharsets.US_ASCII);
    /** Format version this build writes and reads. */
    public static final int VERSION = 1;
    static final int HEADER_BYTES = 64;
    static final int FLAG_WEIGHTED = 1;
    static final int FLAG_SYMMETRIC = 2;
    private static final long WINDOW = 1L << 30;
    private static final int CHUNK = 1 << 20;

    private BinaryCsr() {
    }

    /** @return total file size for a graph of {@code n} vertices and {@code m} edges */
    static long fileSize(final long n, final long m, final boolean weighted) {
        final long ints = padded(m * 4);
        return HEADER_BYTES + (n + 1) * 8 + ints * (weighted ? 2 : 1);
    }

    private static long padded(final long bytes) {
        return (bytes + 7) & -8L;
    }

    /**
     * Writes {@code g} to {@code file} (replacing it).
     *
     * @throws IOException if the file cannot be written; a {@link FileSystemException} names {@code file} (not the
     * temporary file the data goes through): a directory, a directory that does not exist, no permission, no space
     */
    public static void write(final CsrGraph g, final Path file, final Progress progress) throws IOException {
        if (Files.isDirectory(file)) {
            throw new FileSystemException(file.toString(), null, "is a directory");
        }
        final Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(file.toString(), null, "no such directory " + dir);
        }
        try {
            writeThroughTemporary(g, file, progress);
        } catch (final FileSystemException e) {
            if (file.toString().equals(e.getFile())) {
                throw e;
            }
            final String reason = e.getReason() != null ? e.getReason()
                : e instanceof NoSuchFileException ? "no such file or directory"
                : e instanceof AccessDeniedException ? "permission denied" : e.getClass().getSimpleName();
            throw (FileSystemException)new FileSystemException(file.toString(), null, reason).initCause(e);
        }
    }

    private static void writeThroughTemporary(final CsrGraph g, final Path file, final Progress progress)
        throws IOException {
        final long n = g.vertexCount();
        final long m = g.edgeCount();
        final boolean weighted = g.isWeighted();
        final long size = fileSize(n, m, weighted);
        final Path dir = file.toAbsolutePath().getParent();
        final Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        boolean done = false;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Progress.Task task = progress.start("writing " + file.getFileName(), size, "MiB", 1 << 20)) {
            final Sections s = new Sections(n, m, weighted);
            final long[] longs = new long[CHUNK];
            final int[] ints = new int[CHUNK];
            final CRC32C crc = new CRC32C();
            for (long at = 0; at <= n; at += CHUNK) {
                final int k = (int)Math.min(CHUNK, n + 1 - at);
                g.copyOffsets((int)at, longs, 0, k);
                putLongs(ch, s.offsets + at * 8, longs, k, crc);
                task.stepBy(k * 8L);
            }
            writeInts(ch, s.targets, m, ints, crc, task, (from, count) -> g.copyTargets(from, ints, 0, count));
            if (weighted) {
                writeInts(ch, s.weights, m, ints, crc, task, (from, count) -> g.copyWeights(from, ints, 0, count));
            }
            final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            header.put(MAGIC).putInt(VERSION).putInt((weighted ? FLAG_WEIGHTED : 0)
                | (g.isSymmetric() ? FLAG_SYMMETRIC : 0)).putLong(n).putLong(m).putLong(crc.getValue());
            final CRC32C hcrc = new CRC32C();
            hcrc.update(header.array(), 0, 40);
            header.putInt((int)hcrc.getValue());
            final MappedByteBuffer hb = ch.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_BYTES);
            hb.put(header.array());
            hb.force();
            ch.force(true);
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Byte offsets of the sections. */
    private static final class Sections {
        final long offsets;
        final long targets;
        final long weights;
        final long end;

        Sections(final long n, final long m, final boolean weighted) {
            offsets = HEADER_BYTES;
            targets = offsets + (n + 1) * 8;
            weights = targets + padded(m * 4);
            end = weighted ? weights + padded(m * 4) : weights;
        }
    }

    @FunctionalInterface
    private interface IntChunks {
        void fill(long from, int count);
    }

    private static void writeInts(final FileChannel ch, final long base, final long count, final int[] ints,
        final CRC32C crc, final Progress.Task task, final IntChunks source) throws IOException {
        for (long at = 0; at < count; at += CHUNK) {
            final int k = (int)Math.min(CHUNK, count - at);
            source.fill(at, k);
            putInts(ch, base + at * 4, ints, k, crc);
            task.stepBy(k * 4L);
        }
        if ((count & 1) != 0) {
            putInts(ch, base + count * 4, new int[1], 1, crc);
        }
    }

    private static void putLongs(final FileChannel ch, final long pos, final long[] src, final int count,
        final CRC32C crc) throws IOException {
        final MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, pos, count * 8L);
        b.order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(src, 0, count);
        crc.update(b.duplicate().clear());
    }

    private static void putInts(final FileChannel ch, final long pos, final int[] src, final int count,
        final CRC32C crc) throws IOException {
        final MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, pos, count * 4L);
        b.order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(src, 0, count);
        crc.update(b.duplicate().clear());
    }

    /**
     * Reads a graph written by {@link #write}.
     *
     * @param file     the file
     * @param name     the file as the user named it (for errors)
     * @param progress progress reporting
     * @return the validated graph
     * @throws GraphFormatException naming the file and what is wrong; IOException if it cannot be read
     */
    public static CsrGraph read(final Path file, final String name, final Progress progress) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            final long actual = ch.size();
            if (actual < HEADER_BYTES) {
                throw new GraphFormatException(name, 0, "not an Overlap binary CSR file: " + actual
                    + " bytes is shorter than the " + HEADER_BYTES + "-byte header");
            }
            final ByteBuffer h = ch.map(FileChannel.MapMode.READ_ONLY, 0, HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            final byte[] magic = new byte[8];
            h.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new GraphFormatException(name, 0, "not an Overlap binary CSR file (bad magic)");
            }
            final int version = h.getInt();
            if (version != VERSION) {
                throw new GraphFormatException(name, 0, "binary CSR version " + version + " is not supported (this "
                    + "build reads version " + VERSION + ")");
            }
            final int flags = h.getInt();
            final long n = h.getLong();
            final long m = h.getLong();
            final long payloadCrc = h.getLong();
            final int headerCrc = h.getInt();
            final CRC32C hcrc = new CRC32C();
            hcrc.update(h.duplicate().position(0).limit(40));
            if ((int)hcrc.getValue() != headerCrc) {
                throw new GraphFormatException(name, 0, "header checksum mismatch: the file is corrupt");
            }
            if ((flags & ~(FLAG_WEIGHTED | FLAG_SYMMETRIC)) != 0) {
                throw new GraphFormatException(name, 0, "unknown flags 0x" + Integer.toHexString(flags));
            }
            if (n < 0 || n > Integer.MAX_VALUE - 1 || m < 0 || m > CsrGraph.MAX_EDGES) {
                throw new GraphFormatException(name, 0, "header declares " + n + " vertices and " + m
                    + " edges, beyond what a CSR holds");
            }
            final boolean weighted = (flags & FLAG_WEIGHTED) != 0;
            final long expected = fileSize(n, m, weighted);
            if (actual != expected) {
                throw new GraphFormatException(name, 0, (actual < expected ? "file is truncated" : "file is too long")
                    + ": " + n + " vertices and " + m + " edges need " + expected + " bytes, found " + actual);
            }
            final Sections s = new Sections(n, m, weighted);
            final long[] offsets = new long[(int)n + 1];
            final int[] targets = new int[(int)m];
            final int[] weights = weighted ? new int[(int)m] : null;
            final CRC32C crc = new CRC32C();
            try (Progress.Task task = progress.start("mapping " + file.getFileName(), actual, "MiB", 1 << 20)) {
                readLongs(ch, s.offsets, offsets, crc, task);
                readInts(ch, s.targets, targets, crc, task);
                if (weighted) {
                    readInts(ch, s.weights, weights, crc, task);
                }
            }
            if (crc.getValue() != payloadCrc) {
                throw new GraphFormatException(name, 0, "payload checksum mismatch: the file is corrupt");
            }
            try {
                return CsrGraph.wrap(offsets, targets, weights, (flags & FLAG_SYMMETRIC) != 0);
            } catch (final IllegalArgumentException e) {
                throw new GraphFormatException(name, 0, "invalid CSR: " + e.getMessage(), e);
            }
        } catch (final NoSuchFileException e) {
            throw new GraphFormatException(name, 0, "no such file", e);
        }
    }

    private static void readLongs(final FileChannel ch, final long base, final long[] dst, final CRC32C crc,
        final Progress.Task task) throws IOException {
        final long bytes = dst.length * 8L;
        for (long at = 0; at < bytes; at += WINDOW) {
            final long len = Math.min(WINDOW, bytes - at);
            final MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, base + at, len);
            b.order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(dst, (int)(at / 8), (int)(len / 8));
            crc.update(b);
            task.stepBy(len);
        }
    }

    private static void readInts(final FileChannel ch, final long base, final int[] dst, final CRC32C crc,
        final Progress.Task task) throws IOException {
        final long bytes = dst.length * 4L;
        for (long at = 0; at < bytes; at += WINDOW) {
            final long len = Math.min(WINDOW, bytes - at);
            final MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, base + at, len);
            b.order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(dst, (int)(at / 4), (int)(len / 4));
            crc.update(b);
            task.stepBy(len);
        }
        if ((dst.length & 1) != 0) {
            crc.update(ch.map(FileChannel.MapMode.READ_ONLY, base + bytes, 4));
        }
    }
}
