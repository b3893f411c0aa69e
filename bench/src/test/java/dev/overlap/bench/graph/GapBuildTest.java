package dev.overlap.bench.graph;

import dev.overlap.graph.app.GraphApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Finding GAP: the option before the environment, a one-line note for every way it can be absent. */
class GapBuildTest {
    @TempDir
    Path dir;

    @Test
    void absentBuildsGiveOneLineNotes() {
        final Set<String> notes = new LinkedHashSet<>();
        assertNull(GapBuild.locate(null, null, notes));
        assertNull(GapBuild.locate(null, "  ", notes));
        assertNull(GapBuild.locate(dir.resolve("nope"), null, notes));
        assertNull(GapBuild.locate(null, dir.resolve("gone").toString(), notes));
        final List<String> n = List.copyOf(notes);
        assertEquals(3, n.size(), n.toString());
        assertTrue(n.get(0).startsWith("gap not run: no GAP build given (git clone https://github.com/sbeamer/gapbs"),
            n.get(0));
        assertTrue(n.get(1).startsWith("gap not run: --gap " + dir.resolve("nope") + " is not a directory"), n.get(1));
        assertTrue(n.get(2).startsWith("gap not run: OVERLAP_GAP_DIR=" + dir.resolve("gone") + " is not a directory"),
            n.get(2));
        for (final String line : n) {
            assertTrue(!line.contains("\n"), "one line: " + line);
        }
    }

    @Test
    void theOptionWinsAndAMissingBinaryIsNamed() throws IOException {
        final Path other = Files.createDirectory(dir.resolve("other"));
        final Set<String> notes = new LinkedHashSet<>();
        final GapBuild b = GapBuild.locate(dir, other.toString(), notes);
        assertTrue(notes.isEmpty(), notes.toString());
        assertEquals(dir, b.dir());
        assertEquals(dir.resolve("sssp"), b.binary(GraphApp.SSSP));
        final Path bfs = Files.writeString(dir.resolve("bfs"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(bfs, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve("pr"), "not executable");
        assertNull(b.missing(GraphApp.BFS));
        assertEquals("gap pr skipped: " + dir.resolve("pr") + " is missing or not executable (run make in " + dir + ")",
            b.missing(GraphApp.PAGERANK));
        assertTrue(b.missing(GraphApp.SSSP).startsWith("gap sssp skipped: " + dir.resolve("sssp")));
        assertEquals(other, GapBuild.locate(null, other.toString(), notes).dir(), "the environment when no option");
    }
}
