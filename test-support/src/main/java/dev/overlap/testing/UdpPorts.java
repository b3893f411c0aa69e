package dev.overlap.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Free UDP ports for tests that start host groups: the kernel picks a port no socket holds on an address, the socket
 * is closed at once and the port handed out (another process could take it in between; on a test machine that is
 * rare, and the group then fails its join naming the endpoint it could not bind).
 */
public final class UdpPorts {
    private UdpPorts() {
    }

    /**
     * @param address a local address, such as {@code 127.0.0.2}
     * @return a UDP port free on it just now
     */
    public static int free(final String address) {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0))) {
            return socket.getLocalPort();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot find a free UDP port on " + address, e);
        }
    }
}
