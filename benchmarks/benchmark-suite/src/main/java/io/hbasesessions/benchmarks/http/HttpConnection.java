package io.hbasesessions.benchmarks.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection to 127.0.0.1 that sends GETs and reads answers with a
 * Content-Length (the benchmark servlet always sets one). Small and allocation-light so that the load
 * generator takes little of the CPU the server under test needs; it reconnects when the server closes.
 */
final class HttpConnection implements AutoCloseable {

    private static final int TIMEOUT_MILLIS = 10_000;

    /** Status and, if the answer set one, the cookie to send back ({@code NAME=value}). */
    record Answer(int status, String cookie) {
    }

    private final URI app;
    private Socket socket;
    private OutputStream out;
    private InputStream in;

    HttpConnection(URI app) {
        this.app = app;
    }

    /** GET {@code app + path}, with {@code cookie} if not null. */
    Answer get(String path, String cookie) throws IOException {
        if (socket == null) {
            connect();
        }
        String request = "GET " + app.getPath() + path + " HTTP/1.1\r\nHost: " + app.getAuthority() + "\r\n"
                + (cookie == null ? "" : "Cookie: " + cookie + "\r\n") + "\r\n";
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return readAnswer();
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        socket.connect(new InetSocketAddress(app.getHost(), app.getPort()), TIMEOUT_MILLIS);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    private Answer readAnswer() throws IOException {
        String statusLine = readLine();
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long contentLength = -1;
        String cookie = null;
        boolean closes = false;
        for (String header = readLine(); !header.isEmpty(); header = readLine()) {
            int colon = header.indexOf(':');
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "set-cookie" -> cookie = value.substring(0, value.indexOf(';') < 0 ? value.length() : value.indexOf(';'));
                case "connection" -> closes = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        if (contentLength < 0) {
            throw new IOException("An answer without Content-Length (status " + status + "): the benchmark "
                    + "servlet always sets one");
        }
        skip(contentLength);
        if (closes) {
            close();
        }
        return new Answer(status, cookie);
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("The server closed the connection");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    private void skip(long bytes) throws IOException {
        for (long left = bytes; left > 0; left--) {
            if (in.read() < 0) {
                throw new EOFException("The server closed the connection in an answer's body");
            }
        }
    }
}
