package dev.overlap.hosts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The host file: what a valid one gives, and an error naming file, line and fault for each way to get it wrong. */
class HostFileTest {
    @TempDir
    Path tmp;

    private static IllegalArgumentException refused(final String... lines) {
        return assertThrows(IllegalArgumentException.class, () -> HostFile.parse("hosts.txt", List.of(lines)));
    }

    private static void assertMessage(final IllegalArgumentException e, final String... parts) {
        for (final String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
        }
    }

    @Test
    void readsRanksHostsAndPortsSkippingCommentsAndBlankLines() throws Exception {
        final Path file = tmp.resolve("hosts.txt");
        Files.write(file, List.of("# rank host port", "", "1\t127.0.0.2   40101  # the second", "   ",
            "0 127.0.0.1 40100", "2 localhost 40102", "3 ::1 40103"));
        final HostFile hosts = HostFile.read(file);
        assertEquals(4, hosts.ranks());
        assertEquals(file.toString(), hosts.source());
        assertEquals("127.0.0.2", hosts.member(1).host());
        assertEquals(40101, hosts.member(1).port());
        assertEquals("127.0.0.1:40100", hosts.member(0).endpoint());
        assertEquals("[::1]:40103", hosts.member(3).endpoint(), "an IPv6 literal goes in brackets");
        assertEquals(List.of(0, 1, 2, 3), hosts.members().stream().map(HostFile.Member::rank).toList());
        assertTrue(hosts.member(2).address().getAddress().isLoopbackAddress());
    }

    @Test
    void theFingerprintTellsFilesApartAndIgnoresLayout() {
        final HostFile a = HostFile.parse("a", List.of("0 127.0.0.1 40100", "1 127.0.0.2 40100"));
        final HostFile sameInOtherOrder = HostFile.parse("b", List.of("# x", "1 127.0.0.2  40100", "0 127.0.0.1 40100"));
        final HostFile otherPort = HostFile.parse("c", List.of("0 127.0.0.1 40100", "1 127.0.0.2 40101"));
        assertEquals(a.fingerprint(), sameInOtherOrder.fingerprint());
        assertNotEquals(a.fingerprint(), otherPort.fingerprint());
    }

    @Test
    void aDuplicateRankNamesBothLines() {
        assertMessage(refused("0 127.0.0.1 40100", "1 127.0.0.1 40101", "1 127.0.0.2 40102"),
            "hosts.txt line 3", "rank 1 is listed twice", "first on line 2");
    }

    @Test
    void aMissingRankIsNamed() {
        assertMessage(refused("0 127.0.0.1 40100", "2 127.0.0.1 40102"), "hosts.txt", "rank 1 is missing");
        assertMessage(refused("1 127.0.0.1 40100"), "rank 0 is missing");
    }

    @Test
    void aBadPortIsNamedWithItsLine() {
        assertMessage(refused("0 127.0.0.1 port"), "hosts.txt line 1", "bad port 'port'", "1..65535");
        assertMessage(refused("0 127.0.0.1 40100", "1 127.0.0.1 0"), "hosts.txt line 2", "bad port 0");
        assertMessage(refused("0 127.0.0.1 65536"), "line 1", "bad port 65536");
    }

    @Test
    void anUnknownHostIsNamedWithItsLine() {
        assertMessage(refused("0 127.0.0.1 40100", "1 no-such-host.invalid 40101"), "hosts.txt line 2",
            "unknown host 'no-such-host.invalid'", "rank 1");
    }

    @Test
    void aBadRankIsNamedWithItsLine() {
        assertMessage(refused("x 127.0.0.1 40100"), "hosts.txt line 1", "bad rank 'x'");
        assertMessage(refused("-1 127.0.0.1 40100"), "bad rank -1");
        assertMessage(refused("256 127.0.0.1 40100"), "bad rank 256", "0..255");
    }

    @Test
    void aLineWithoutThreeFieldsIsShown() {
        assertMessage(refused("0 127.0.0.1"), "hosts.txt line 1", "expected 'rank host port', got '0 127.0.0.1'");
        assertMessage(refused("0 127.0.0.1 40100 extra"), "got '0 127.0.0.1 40100 extra'");
    }

    @Test
    void twoRanksOnOneEndpointAreRefused() {
        assertMessage(refused("0 127.0.0.1 40100", "1 127.0.0.1 40100"), "hosts.txt line 2",
            "rank 1 has the endpoint of rank 0 (line 1)");
    }

    @Test
    void aFileWithoutRanksIsRefused() {
        assertMessage(refused("# nothing", ""), "hosts.txt lists no rank");
    }

    @Test
    void anUnreadableFileIsNamed() {
        final Path missing = tmp.resolve("missing.txt");
        final UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> HostFile.read(missing));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void aRankOutsideTheFileIsNamed() {
        final HostFile hosts = HostFile.parse("hosts.txt", List.of("0 127.0.0.1 40100"));
        final IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> hosts.member(1));
        assertTrue(e.getMessage().contains("rank 1 is not in host file hosts.txt"), e.getMessage());
    }
}
