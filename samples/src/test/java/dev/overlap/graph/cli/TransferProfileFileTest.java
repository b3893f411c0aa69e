package dev.overlap.graph.cli;

import dev.overlap.replication.TransferConfig;
import dev.overlap.replication.TransferMode;
import dev.overlap.replication.TransferProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransferProfileFileTest {
    @Test
    void profilesRoundTripThroughJson(@TempDir final Path dir) throws IOException {
        final TransferConfig choice = new TransferConfig(TransferMode.POLLING, 1 << 20, 2);
        final TransferProfile profile = new TransferProfile("jacobi", TransferProfile.describeMachine(), choice,
            List.of(new TransferProfile.Point(choice, 1234), new TransferProfile.Point(
                new TransferConfig(TransferMode.BULK, 4096, 0), 5678)));
        final Path file = dir.resolve("jacobi.json");
        TransferProfileFile.write(profile, file);
        final TransferProfile back = TransferProfileFile.read(file);
        assertEquals(choice, back.choice());
        assertEquals("jacobi", back.workload());
        assertEquals(profile.machine(), back.machine());
        assertEquals(5678, back.points().get(1).medianNanos());
        assertEquals(TransferMode.BULK, back.points().get(1).config().mode());
        assertEquals(choice, TransferProfileFile.load(file, "jacobi", TransferConfig.DEFAULT));
    }

    @Test
    void aMissingCorruptOrForeignProfileFallsBackToTheDefault(@TempDir final Path dir) throws IOException {
        final TransferConfig fallback = TransferConfig.DEFAULT;
        assertEquals(fallback, TransferProfileFile.load(dir.resolve("missing.json"), "w", fallback));

        final Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"format\": 1, \"workload\": \"w\", \"choice\": {\"mode\": \"WARP\"");
        assertEquals(fallback, TransferProfileFile.load(broken, "w", fallback));
        final IllegalArgumentException notJson = assertThrows(IllegalArgumentException.class,
            () -> TransferProfileFile.read(broken));
        assertTrue(notJson.getMessage().startsWith(broken + ": not valid JSON"), notJson.getMessage());

        final Path badMode = dir.resolve("bad-mode.json");
        Files.writeString(badMode, "{\"format\": 1, \"workload\": \"w\", \"machine\": \"m\", \"points\": [],"
            + " \"choice\": {\"mode\": \"WARP\", \"chunkBytes\": 4096, \"transferThreads\": 1}}");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> TransferProfileFile.read(badMode));
        assertTrue(e.getMessage().contains("'choice.mode' is 'WARP', not a transfer mode"), e.getMessage());
        assertEquals(fallback, TransferProfileFile.load(badMode, "w", fallback));

        final Path foreign = dir.resolve("foreign.json");
        TransferProfileFile.write(new TransferProfile("other", "m", new TransferConfig(TransferMode.BULK, 4096, 0), List.of()),
            foreign);
        assertEquals(fallback, TransferProfileFile.load(foreign, "w", fallback));

        final Path wrongFormat = dir.resolve("v9.json");
        Files.writeString(wrongFormat, "{\"format\": 9}");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransferProfileFile.read(wrongFormat)).getMessage()
            .contains("unsupported format 9"));
    }
}
