package io.hbasesessions.integration;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * A container distribution installed as docs/install.md says, run as its own process on a free port of 127.0.0.1;
 * started once every web application answers (its shop's {@code cart.txt}).
 */
abstract class InstalledServer {

    private final int port;
    private ServerProcess process;

    InstalledServer(int port) {
        this.port = port;
    }

    int port() {
        return port;
    }

    /** The command that runs the server in the foreground until it is told to stop. */
    abstract ProcessBuilder command();

    /** Where {@code logName} of this server goes. */
    abstract Path logFile(String logName);

    /** This node's copy of the key file docs/install.md puts in /etc/hbase-sessions/. */
    abstract Path stateKeys();

    /** Starts the server and waits until its applications answer; its output goes to {@code logName}. */
    void start(String logName) throws IOException, InterruptedException {
        process = ServerProcess.start(command(), logFile(logName), url("shop/cart.txt"));
    }

    void stop() {
        if (process != null) {
            process.close();
            process = null;
        }
    }

    /** The log of the current (or last) run. */
    Path log() {
        return process.log();
    }

    URI url(String path) {
        return URI.create("http://127.0.0.1:" + port + "/" + path);
    }
}
