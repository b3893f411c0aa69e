package dev.overlap.core;

import org.agrona.BufferUtil;
import org.agrona.IoUtil;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where device memory lives: page-aligned direct buffers ({@link #direct()}), or memory-mapped files in a
 * directory ({@link #mappedFiles(Path)}), the form that lets devices in other processes share the memory later.
 * Either way the memory starts zeroed. Immutable; thread-safe.
 */
public abstract class MemoryBacking {
    static final int PAGE = 4096;

    private MemoryBacking() {
    }

    /** @return off-heap direct buffers aligned to 4 KiB, freed eagerly on close */
    public static MemoryBacking direct() {
        return Direct.INSTANCE;
    }

    /**
     * @param directory an existing, writable directory; one file {@code overlap-dev<N>.mem} per device is created
     *                  (replacing an old one) and deleted on close
     * @return mapped-file backing
     */
    public static MemoryBacking mappedFiles(final Path directory) {
        Objects.requireNonNull(directory, "directory");
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("mapped-file backing: '" + directory + "' is not a directory");
        }
        return new Mapped(directory);
    }

    abstract ByteBuffer allocate(int device, int capacity);

    abstract void release(int device, ByteBuffer buffer);

    private static final class Direct extends MemoryBacking {
        static final Direct INSTANCE = new Direct();

        @Override
        ByteBuffer allocate(final int device, final int capacity) {
            return BufferUtil.allocateDirectAligned(capacity, PAGE);
        }

        @Override
        void release(final int device, final ByteBuffer buffer) {
            BufferUtil.free(buffer);
        }

        @Override
        public String toString() {
            return "direct";
        }
    }

    private static final class Mapped extends MemoryBacking {
        private final Path directory;

        Mapped(final Path directory) {
            this.directory = directory;
        }

        private File file(final int device) {
            return directory.resolve("overlap-dev" + device + ".mem").toFile();
        }

        @Override
        ByteBuffer allocate(final int device, final int capacity) {
            final File file = file(device);
            try {
                Files.deleteIfExists(file.toPath());
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot replace device memory file " + file, e);
            }
            return IoUtil.mapNewFile(file, capacity, true);
        }

        @Override
        void release(final int device, final ByteBuffer buffer) {
            IoUtil.unmap((MappedByteBuffer)buffer);
            IoUtil.delete(file(device), true);
        }

        @Override
        public String toString() {
            return "mapped(" + directory + ")";
        }
    }
}
