package dev.overlap.hosts;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** For the tests: one media driver in a temporary directory (shared threading, sparse terms), which close deletes. */
final class TestMediaDriver implements AutoCloseable {
    final Path dir;
    private final MediaDriver driver;

    private TestMediaDriver(final Path dir) {
        this.dir = dir;
        this.driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir.toString())
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
            .termBufferSparseFile(true));
    }

    static TestMediaDriver start(final String prefix) throws IOException {
        return new TestMediaDriver(Files.createTempDirectory(prefix));
    }

    @Override
    public void close() {
        driver.close();
        dev.overlap.core.World.deleteDirectory(dir);
    }
}
