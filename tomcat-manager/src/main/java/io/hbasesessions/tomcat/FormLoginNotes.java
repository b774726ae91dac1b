package io.hbasesessions.tomcat;

import jakarta.servlet.http.Cookie;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.catalina.authenticator.Constants;
import org.apache.catalina.authenticator.SavedRequest;
import org.apache.catalina.connector.Request;
import org.apache.tomcat.util.buf.ByteChunk;

/**
 * The session notes of Tomcat's authenticators that must travel with the session, so that a FORM login
 * works when the login page, {@code j_security_check} and the original request reach different nodes: the
 * request saved before the login page ({@link Constants#FORM_REQUEST_NOTE}) and the session id the login
 * expects ({@link Constants#SESSION_ID_NOTE}). Every other note (the password Tomcat keeps with
 * {@code cache="false"} among them) stays in the request's copy.
 *
 * <p>A saved request is stored in a plain format of its own (method, URIs, query, headers, locales, body),
 * read back within bounds. What would put a credential or the session id at rest is not stored: the
 * {@code Cookie}, {@code Authorization} and {@code Proxy-Authorization} headers and the cookies. When the
 * saved request is restored they are the ones the browser sends with the request being restored.
 */
final class FormLoginNotes {

    private static final int FORMAT = 1;
    /** Headers that carry credentials or the session id: taken from the request being restored, never stored. */
    private static final Set<String> FROM_THE_RESTORED_REQUEST = caseInsensitive("Cookie", "Authorization",
            "Proxy-Authorization");

    private FormLoginNotes() {
    }

    static boolean travels(String note) {
        return Constants.FORM_REQUEST_NOTE.equals(note) || Constants.SESSION_ID_NOTE.equals(note);
    }

    /** The stored form of a note that {@link #travels}; empty for a value of another type. */
    static Optional<byte[]> encode(String note, Object value) {
        if (Constants.SESSION_ID_NOTE.equals(note) && value instanceof String id) {
            return Optional.of(id.getBytes(StandardCharsets.UTF_8));
        }
        if (Constants.FORM_REQUEST_NOTE.equals(note) && value instanceof SavedRequest saved) {
            return Optional.of(encode(saved));
        }
        return Optional.empty();
    }

    /**
     * The note as Tomcat keeps it, with what was not stored taken from {@code current}, the request on
     * whose behalf it is read (null outside a request: then without cookies).
     *
     * @throws IllegalArgumentException if the bytes are no note of this kind
     */
    static Object decode(String note, byte[] bytes, Request current) {
        if (Constants.SESSION_ID_NOTE.equals(note)) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        try {
            return decodeSavedRequest(new Bounded(bytes), current);
        } catch (IOException e) {
            throw new IllegalArgumentException("a damaged saved request: " + e.getMessage(), e);
        }
    }

    private static byte[] encode(SavedRequest saved) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeByte(FORMAT);
            writeString(out, saved.getMethod());
            writeString(out, saved.getRequestURI());
            writeString(out, saved.getDecodedRequestURI());
            writeString(out, saved.getQueryString());
            writeString(out, saved.getContentType());
            Integer maxInactive = saved.getOriginalMaxInactiveIntervalOptional();
            out.writeBoolean(maxInactive != null);
            out.writeInt(maxInactive == null ? 0 : maxInactive);
            List<String> names = new ArrayList<>();
            saved.getHeaderNames().forEachRemaining(name -> {
                if (!FROM_THE_RESTORED_REQUEST.contains(name)) {
                    names.add(name);
                }
            });
            out.writeInt(names.size());
            for (String name : names) {
                writeString(out, name);
                List<String> values = new ArrayList<>();
                saved.getHeaderValues(name).forEachRemaining(values::add);
                out.writeInt(values.size());
                for (String value : values) {
                    writeString(out, value);
                }
            }
            List<Locale> locales = new ArrayList<>();
            saved.getLocales().forEachRemaining(locales::add);
            out.writeInt(locales.size());
            for (Locale locale : locales) {
                writeString(out, locale.toLanguageTag());
            }
            ByteChunk body = saved.getBody();
            byte[] bodyBytes = body == null ? null : Arrays.copyOfRange(body.getBuffer(), body.getStart(), body.getEnd());
            out.writeInt(bodyBytes == null ? -1 : bodyBytes.length);
            if (bodyBytes != null) {
                out.write(bodyBytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Writing to memory cannot fail", e);
        }
        return buffer.toByteArray();
    }

    private static SavedRequest decodeSavedRequest(Bounded in, Request current) throws IOException {
        if (in.readByte() != FORMAT) {
            throw new IOException("unknown format");
        }
        SavedRequest saved = new SavedRequest();
        saved.setMethod(in.readString());
        saved.setRequestURI(in.readString());
        saved.setDecodedRequestURI(in.readString());
        saved.setQueryString(in.readString());
        saved.setContentType(in.readString());
        boolean hasMaxInactive = in.readBoolean();
        int maxInactive = in.readInt();
        if (hasMaxInactive) {
            saved.setOriginalMaxInactiveInterval(maxInactive);
        }
        for (int headers = in.readCount(); headers > 0; headers--) {
            String name = in.readString();
            for (int values = in.readCount(); values > 0; values--) {
                saved.addHeader(name, in.readString());
            }
        }
        for (int locales = in.readCount(); locales > 0; locales--) {
            saved.addLocale(Locale.forLanguageTag(in.readString()));
        }
        byte[] body = in.readBytes();
        if (body != null) {
            ByteChunk chunk = new ByteChunk();
            chunk.setBytes(body, 0, body.length);
            saved.setBody(chunk);
        }
        if (in.remaining() != 0) {
            throw new IOException(in.remaining() + " unexpected trailing bytes");
        }
        if (current != null) {
            fromTheRestoredRequest(saved, current);
        }
        return saved;
    }

    private static void fromTheRestoredRequest(SavedRequest saved, Request current) {
        Cookie[] cookies = current.getCookies();
        if (cookies != null) {
            Arrays.stream(cookies).forEach(saved::addCookie);
        }
        for (String name : FROM_THE_RESTORED_REQUEST) {
            Collections.list(current.getHeaders(name)).forEach(value -> saved.addHeader(name, value));
        }
    }

    private static void writeString(DataOutputStream out, String text) throws IOException {
        if (text == null) {
            out.writeInt(-1);
            return;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static Set<String> caseInsensitive(String... names) {
        Set<String> set = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        set.addAll(List.of(names));
        return set;
    }

    /** Reads stored bytes: a length or count is never more than the bytes left, so nothing hostile allocates much. */
    private static final class Bounded extends DataInputStream {
        private final ByteArrayInputStream bytes;

        Bounded(byte[] content) {
            this(new ByteArrayInputStream(content));
        }

        private Bounded(ByteArrayInputStream bytes) {
            super(bytes);
            this.bytes = bytes;
        }

        int remaining() {
            return bytes.available();
        }

        int readCount() throws IOException {
            int count = readInt();
            if (count < 0 || count > remaining()) {
                throw new IOException("count " + count + " with " + remaining() + " bytes left");
            }
            return count;
        }

        byte[] readBytes() throws IOException {
            int length = readInt();
            if (length == -1) {
                return null;
            }
            if (length < 0 || length > remaining()) {
                throw new IOException("length " + length + " with " + remaining() + " bytes left");
            }
            return readNBytes(length);
        }

        String readString() throws IOException {
            byte[] utf8 = readBytes();
            return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
        }
    }
}
