package io.hbasesessions.tomcat;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

/**
 * The response the application writes to: it runs the session save just before anything the
 * application does could commit the response. Tomcat has no commit hook, and commits when its buffer
 * overflows, when a set Content-Length is reached, on a flush, a close, a redirect or an error. So
 * every write first checks whether it could reach the buffer's size or the content length (a
 * character counts as many bytes as the charset's widest encoding: Tomcat encodes later), and every
 * flush, close, redirect and error saves first.
 *
 * <p>If the save fails, the application's output is dropped from then on, and the valve answers with
 * the store's failure response instead: the client never sees a success for changes that were lost.
 */
final class CommitGuardResponse extends HttpServletResponseWrapper {

    /** Saves the request's sessions; false when the store failed (the response is then the failure). */
    interface CommitHook {
        boolean beforeCommit();
    }

    private static final String CONTENT_LENGTH = "content-length";

    private final CommitHook hook;
    private long contentLength = -1;
    /** Bytes the application wrote since the last reset, at most (see {@link #countWrite}). */
    private long written;
    private boolean discarding;
    private GuardedOutputStream stream;
    private PrintWriter writer;

    CommitGuardResponse(HttpServletResponse response, CommitHook hook) {
        super(response);
        this.hook = hook;
    }

    /** Runs the hook; after a failed save, everything the application still writes is dropped. */
    private void guard() {
        if (!discarding && !super.isCommitted() && !hook.beforeCommit()) {
            discarding = true;
        }
    }

    /** Before a write of at most {@code bytes}: saves first if the write could commit the response. */
    private void countWrite(long bytes) {
        long after = written + bytes;
        if (after >= getBufferSize() || contentLength >= 0 && after >= contentLength) {
            guard();
        }
        written = after;
    }

    boolean isDiscarding() {
        return discarding;
    }

    @Override
    public boolean isCommitted() {
        return !discarding && super.isCommitted();
    }

    @Override
    public void flushBuffer() throws IOException {
        guard();
        if (!discarding) {
            super.flushBuffer();
        }
    }

    @Override
    public void sendError(int sc) throws IOException {
        guard();
        if (!discarding) {
            super.sendError(sc);
        }
    }

    @Override
    public void sendError(int sc, String msg) throws IOException {
        guard();
        if (!discarding) {
            super.sendError(sc, msg);
        }
    }

    @Override
    public void sendRedirect(String location) throws IOException {
        guard();
        if (!discarding) {
            super.sendRedirect(location);
        }
    }

    // The three redirects Servlet 6.1 (Tomcat 11) added; on Tomcat 10.1 nothing calls them.

    @Override
    public void sendRedirect(String location, boolean clearBuffer) throws IOException {
        guard();
        if (!discarding) {
            super.sendRedirect(location, clearBuffer);
        }
    }

    @Override
    public void sendRedirect(String location, int sc) throws IOException {
        guard();
        if (!discarding) {
            super.sendRedirect(location, sc);
        }
    }

    @Override
    public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
        guard();
        if (!discarding) {
            super.sendRedirect(location, sc, clearBuffer);
        }
    }

    @Override
    public void setContentLength(int length) {
        setContentLengthLong(length);
    }

    @Override
    public void setContentLengthLong(long length) {
        contentLength = length;
        super.setContentLengthLong(length);
    }

    @Override
    public void setHeader(String name, String value) {
        noteContentLength(name, value);
        super.setHeader(name, value);
    }

    @Override
    public void addHeader(String name, String value) {
        noteContentLength(name, value);
        super.addHeader(name, value);
    }

    @Override
    public void setIntHeader(String name, int value) {
        noteContentLength(name, Integer.toString(value));
        super.setIntHeader(name, value);
    }

    @Override
    public void addIntHeader(String name, int value) {
        noteContentLength(name, Integer.toString(value));
        super.addIntHeader(name, value);
    }

    private void noteContentLength(String name, String value) {
        if (name != null && CONTENT_LENGTH.equals(name.toLowerCase(Locale.ROOT))) {
            try {
                contentLength = value == null ? -1 : Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                contentLength = -1;
            }
        }
    }

    @Override
    public void reset() {
        super.reset();
        written = 0;
        contentLength = -1;
    }

    @Override
    public void resetBuffer() {
        super.resetBuffer();
        written = 0;
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (stream == null) {
            stream = new GuardedOutputStream(super.getOutputStream());
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (writer == null) {
            writer = new PrintWriter(new GuardedWriter(super.getWriter(), maxBytesPerChar()));
        }
        return writer;
    }

    private float maxBytesPerChar() {
        try {
            return Charset.forName(getCharacterEncoding()).newEncoder().maxBytesPerChar();
        } catch (IllegalCharsetNameException | UnsupportedCharsetException | UnsupportedOperationException e) {
            // Tomcat refuses such a charset itself; until then, assume the widest common encoding.
            return 4;
        }
    }

    private final class GuardedOutputStream extends ServletOutputStream {
        private final ServletOutputStream out;

        GuardedOutputStream(ServletOutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            countWrite(1);
            if (!discarding) {
                out.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            countWrite(len);
            if (!discarding) {
                out.write(b, off, len);
            }
        }

        /** Servlet 6.1 (Tomcat 11). */
        @Override
        public void write(ByteBuffer buffer) throws IOException {
            countWrite(buffer.remaining());
            if (discarding) {
                buffer.position(buffer.limit());
            } else {
                out.write(buffer);
            }
        }

        @Override
        public void flush() throws IOException {
            guard();
            if (!discarding) {
                out.flush();
            }
        }

        @Override
        public void close() throws IOException {
            guard();
            if (!discarding) {
                out.close();
            }
        }

        @Override
        public boolean isReady() {
            return out.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            out.setWriteListener(listener);
        }
    }

    private final class GuardedWriter extends Writer {
        private final PrintWriter out;
        private final float maxBytesPerChar;

        GuardedWriter(PrintWriter out, float maxBytesPerChar) {
            this.out = out;
            this.maxBytesPerChar = maxBytesPerChar;
        }

        @Override
        public void write(char[] chars, int off, int len) {
            countWrite((long) Math.ceil(len * maxBytesPerChar));
            if (!discarding) {
                out.write(chars, off, len);
            }
        }

        @Override
        public void write(String text, int off, int len) {
            countWrite((long) Math.ceil(len * maxBytesPerChar));
            if (!discarding) {
                out.write(text, off, len);
            }
        }

        @Override
        public void flush() {
            guard();
            if (!discarding) {
                out.flush();
            }
        }

        @Override
        public void close() {
            guard();
            if (!discarding) {
                out.close();
            }
        }
    }
}
