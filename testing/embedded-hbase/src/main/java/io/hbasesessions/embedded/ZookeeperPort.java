package io.hbasesessions.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Port checks done before launching, so a taken port fails at once instead of after a server start. */
final class ZookeeperPort {

    private ZookeeperPort() {
    }

    /** A port that was free a moment ago; the server binds it a few hundred milliseconds later. */
    static int pickFree() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot find a free TCP port (" + e + "): choose a ZooKeeper port", e);
        }
    }

    /** Binds the wildcard address, as ZooKeeper does, so a listener on any address counts as a conflict. */
    static void requireFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
        } catch (IOException e) {
            throw inUse(port);
        }
    }

    static EmbeddedHBaseException inUse(int port) {
        return new EmbeddedHBaseException("ZooKeeper port " + port + " is already in use: stop the process that "
                + "listens on it, or choose another ZooKeeper port (0 picks a free one)");
    }
}
