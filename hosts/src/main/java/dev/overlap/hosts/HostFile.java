package dev.overlap.hosts;

import dev.overlap.core.World;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The members of a group of processes on several hosts, in the spirit of an MPI host file: one line per rank,
 * {@code rank host port}, where {@code host} is a name or an address this rank receives on and {@code port} its UDP
 * port. A {@code #} starts a comment (whole line or trailing); blank lines are allowed; fields are separated by
 * spaces or tabs. Every rank of a job reads the same file.
 *
 * <pre>
 * # rank  host        port
 *   0     127.0.0.1   40100
 *   1     127.0.0.2   40101
 *   2     node-b      40100
 * </pre>
 *
 * <p>The ranks must be {@code 0..n-1}, each once, with n at most {@value World#MAX_RANKS}; every host must resolve
 * (it is looked up while the file is read, so that a typo fails here rather than as a join timeout), and no two ranks
 * may share an endpoint (the same address and port). A file that breaks a rule is refused with an
 * {@link IllegalArgumentException} naming the file, the line and what was wrong.
 *
 * <p>Immutable; thread-safe.
 */
public final class HostFile {
    /** One rank's entry. */
    public static final class Member {
        private final int rank;
        private final String host;
        private final int port;
        private final InetSocketAddress address;

        Member(final int rank, final String host, final int port, final InetSocketAddress address) {
            this.rank = rank;
            this.host = host;
            this.port = port;
            this.address = address;
        }

        /** @return the rank */
        public int rank() {
            return rank;
        }

        /** @return the host as the file names it */
        public String host() {
            return host;
        }

        /** @return the UDP port this rank receives on */
        public int port() {
            return port;
        }

        /** @return the resolved address and port */
        public InetSocketAddress address() {
            return address;
        }

        /** @return {@code host:port} as an Aeron UDP endpoint (an IPv6 literal in brackets) */
        public String endpoint() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }

        @Override
        public String toString() {
            return "rank " + rank + " at " + endpoint();
        }
    }

    private final String source;
    private final List<Member> members;
    private final long fingerprint;

    private HostFile(final String source, final List<Member> members) {
        this.source = source;
        this.members = Collections.unmodifiableList(members);
        long h = 0xcbf29ce484222325L; // FNV-1a over every member's rank, host and port
        for (final Member m : members) {
            final String s = m.rank + " " + m.host + " " + m.port + "\n";
            for (int i = 0; i < s.length(); i++) {
                h = (h ^ s.charAt(i)) * 0x100000001b3L;
            }
        }
        this.fingerprint = h;
    }

    /**
     * Reads a host file.
     *
     * @param file the file
     * @return its members
     * @throws IllegalArgumentException naming the file, the line and the error
     * @throws UncheckedIOException     if the file cannot be read (naming it)
     */
    public static HostFile read(final Path file) {
        Objects.requireNonNull(file, "file");
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read the host file " + file + ": " + e.getMessage(), e);
        }
        return parse(file.toString(), lines);
    }

    /**
     * Parses the lines of a host file.
     *
     * @param source names the file in error messages
     * @param lines  its lines
     * @return its members
     * @throws IllegalArgumentException naming {@code source}, the line and the error
     */
    public static HostFile parse(final String source, final List<String> lines) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(lines, "lines");
        final Map<Integer, Integer> lineOfRank = new HashMap<>();
        final Map<InetSocketAddress, Integer> rankOfAddress = new HashMap<>();
        final List<Member> byRank = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final int lineNo = i + 1;
            String line = lines.get(i);
            final int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            final String[] f = line.split("[ \t]+");
            if (f.length != 3) {
                throw error(source, lineNo, "expected 'rank host port', got '" + line + "'");
            }
            final int rank = number(source, lineNo, "rank", f[0], 0, World.MAX_RANKS - 1);
            final int port = number(source, lineNo, "port", f[2], 1, 65535);
            final Integer before = lineOfRank.putIfAbsent(rank, lineNo);
            if (before != null) {
                throw error(source, lineNo, "rank " + rank + " is listed twice (first on line " + before + ")");
            }
            final InetAddress address;
            try {
                address = InetAddress.getByName(f[1]);
            } catch (final UnknownHostException e) {
                throw error(source, lineNo, "unknown host '" + f[1] + "' for rank " + rank + " (it does not resolve)");
            }
            final InetSocketAddress endpoint = new InetSocketAddress(address, port);
            final Integer other = rankOfAddress.putIfAbsent(endpoint, rank);
            if (other != null) {
                throw error(source, lineNo, "rank " + rank + " has the endpoint of rank " + other + " (line "
                    + lineOfRank.get(other) + "): " + f[1] + ":" + port + "; every rank needs its own address or port");
            }
            while (byRank.size() <= rank) {
                byRank.add(null);
            }
            byRank.set(rank, new Member(rank, f[1], port, endpoint));
        }
        if (byRank.isEmpty()) {
            throw new IllegalArgumentException("host file " + source + " lists no rank (expected lines "
                + "'rank host port')");
        }
        for (int r = 0; r < byRank.size(); r++) {
            if (byRank.get(r) == null) {
                throw new IllegalArgumentException("host file " + source + ": rank " + r + " is missing (the file lists"
                    + " ranks up to " + (byRank.size() - 1) + "; the ranks must be 0.." + (byRank.size() - 1)
                    + ", each on a line of its own)");
            }
        }
        return new HostFile(source, byRank);
    }

    private static int number(final String source, final int line, final String what, final String text,
        final int min, final int max) {
        final int value;
        try {
            value = Integer.parseInt(text);
        } catch (final NumberFormatException e) {
            throw error(source, line, "bad " + what + " '" + text + "': not a number in " + min + ".." + max);
        }
        if (value < min || value > max) {
            throw error(source, line, "bad " + what + " " + value + ": must be in " + min + ".." + max);
        }
        return value;
    }

    private static IllegalArgumentException error(final String source, final int line, final String what) {
        return new IllegalArgumentException("host file " + source + " line " + line + ": " + what);
    }

    /** @return the file's name, as given to {@link #read} or {@link #parse} */
    public String source() {
        return source;
    }

    /** @return how many ranks */
    public int ranks() {
        return members.size();
    }

    /**
     * @param rank a rank of the file
     * @return its entry
     * @throws IndexOutOfBoundsException naming the ranks the file has
     */
    public Member member(final int rank) {
        if (rank < 0 || rank >= members.size()) {
            throw new IndexOutOfBoundsException("rank " + rank + " is not in host file " + source + " (ranks 0.."
                + (members.size() - 1) + ")");
        }
        return members.get(rank);
    }

    /** @return every entry, by rank (unmodifiable) */
    public List<Member> members() {
        return members;
    }

    /**
     * @return a hash of every member's rank, host and port: every message of a group carries it, so that processes
     *         started with different host files (or another job on the same port) ignore each other
     */
    long fingerprint() {
        return fingerprint;
    }

    @Override
    public String toString() {
        return "HostFile{" + source + ", " + members.size() + " ranks}";
    }
}
