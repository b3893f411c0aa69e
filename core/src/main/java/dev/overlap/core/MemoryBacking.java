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

    /** A page-aligned view and the buffer that owns the memory (what must be freed). */
    static final class Allocation {
        final ByteBuffer aligned;
        final ByteBuffer owner;

        Allocation(final ByteBuffer aligned, final ByteBuffer owner) {
            this.aligned = aligned;
            this.owner = owner;
        }
    }

    /**
     * @return the memory files of a world of several processes: this rank's devices' files are created in the job
     *         directory, every other device's file (created by its owner before it announced itself ready) is
     *         mapped; none is deleted on close (the last rank to leave deletes the directory)
     */
    static MemoryBacking shared(final World world) {
        return new Shared(world);
    }

    abstract Allocation allocate(int device, int capacity);

    abstract void release(int device, Allocation allocation);

    /**
     * Gives up the memory without freeing it now, for a mesh closed while parts of it may still be referenced: the
     * memory is released by the garbage collector once nothing references its buffer (a direct buffer's cleaner
     * frees it; a mapping is unmapped), so a late access reads live memory instead of crashing the JVM.
     */
    abstract void abandon(int device, Allocation allocation);

    /** @return a zeroed direct buffer of {@code capacity} bytes aligned to {@code alignment}, and its owner */
    static Allocation allocateDirectAligned(final int capacity, final int alignment) {
        // alignedSlice also rounds the limit down to the alignment: over-allocate a whole unit on each side.
        final int rounded = (capacity + alignment - 1) & -alignment;
        final ByteBuffer owner = ByteBuffer.allocateDirect(rounded + alignment);
        return new Allocation(owner.alignedSlice(alignment).limit(capacity).slice(), owner);
    }

    private static final class Direct extends MemoryBacking {
        static final Direct INSTANCE = new Direct();

        @Override
        Allocation allocate(final int device, final int capacity) {
            return allocateDirectAligned(capacity, PAGE);
        }

        @Override
        void release(final int device, final Allocation allocation) {
            BufferUtil.free(allocation.owner);
        }

        @Override
        void abandon(final int device, final Allocation allocation) {
            // nothing to do: the owner's cleaner frees the memory once the buffer is unreachable
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
        Allocation allocate(final int device, final int capacity) {
            final File file = file(device);
            try {
                Files.deleteIfExists(file.toPath());
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot replace device memory file " + file, e);
            }
            final MappedByteBuffer mapped = IoUtil.mapNewFile(file, capacity, true);
            return new Allocation(mapped, mapped);
        }

        @Override
        void release(final int device, final Allocation allocation) {
            IoUtil.unmap((MappedByteBuffer)allocation.owner);
            IoUtil.delete(file(device), true);
        }

        @Override
        void abandon(final int device, final Allocation allocation) {
            // the file goes now (a mapping outlives its unlinked file); the mapping goes with the buffer
            IoUtil.delete(file(device), true);
        }

        @Override
        public String toString() {
            return "mapped(" + directory + ")";
        }
    }

    private static final class Shared extends MemoryBacking {
        private final World world;

        Shared(final World world) {
            this.world = world;
        }

        private File file(final int device) {
            return world.directory().resolve("dev" + device + ".mem").toFile();
        }

        @Override
        Allocation allocate(final int device, final int capacity) {
            final File file = file(device);
            final MappedByteBuffer mapped;
            if (world.isLocal(device)) {
                IoUtil.delete(file, true); // a dead job's file: a new one, never a mapping of the old
                mapped = IoUtil.mapNewFile(file, capacity, false); // a new file reads as zeros
            } else {
                if (!file.isFile() || file.length() != capacity) {
                    throw new IllegalStateException("dev" + device + " memory file " + file + " of rank "
                        + world.rankOf(device) + " is " + (file.isFile() ? file.length() + " bytes, expected "
                        + capacity : "missing") + " although that rank announced itself ready");
                }
                mapped = IoUtil.mapExistingFile(file, "dev" + device);
            }
            return new Allocation(mapped, mapped);
        }

        @Override
        void release(final int device, final Allocation allocation) {
            IoUtil.unmap((MappedByteBuffer)allocation.owner);
        }

        @Override
        void abandon(final int device, final Allocation allocation) {
            // the mapping goes with the buffer; the file with the job directory
        }

        @Override
        public String toString() {
            return "shared(" + world.directory() + ")";
        }
    }
}
