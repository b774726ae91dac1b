package io.hbasesessions.tomcat;

import io.hbasesessions.store.NoteFormat;
import io.hbasesessions.store.SessionIds;
import jakarta.servlet.http.Cookie;
import java.security.MessageDigest;
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
 * read back within bounds. What would put a credential or a session id at rest is not stored: the
 * {@code Cookie}, {@code Authorization} and {@code Proxy-Authorization} headers and the cookies (when the
 * saved request is restored they are the ones the browser sends with the request being restored), a session
 * id as a URI path parameter ({@code ;jsessionid=}), and any other header value naming the session's id (a
 * {@code Referer} of a page whose links carried it). The
 * id the login expects is the session's own: it is stored as a hash and given back as the id the request
 * names, when their hashes match.
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

    /**
     * The session ids a stored note must not hold: the session's, and the one its request asked for (before the
     * login page rotates it), with or without a route.
     */
    record SessionIdsOf(List<String> ids) {

        SessionIdsOf {
            ids = ids.stream().map(SessionIds::withoutRoute).filter(SessionIds::isValid).distinct().toList();
        }

        boolean namedIn(String text) {
            return ids.stream().anyMatch(text::contains);
        }

        String removedFromUri(String uri) {
            return SessionIds.uriWithout(uri, ids);
        }
    }

    /** The stored form of a note that {@link #travels}, holding none of {@code session}'s ids; empty for a value of another type. */
    static Optional<byte[]> encode(String note, Object value, SessionIdsOf session) {
        if (Constants.SESSION_ID_NOTE.equals(note) && value instanceof String id) {
            return Optional.of(SessionIds.hash(id));
        }
        if (Constants.FORM_REQUEST_NOTE.equals(note) && value instanceof SavedRequest saved) {
            return Optional.of(encode(saved, session));
        }
        return Optional.empty();
    }

    /**
     * The note as Tomcat keeps it, with what was not stored taken from {@code current}, the request on
     * whose behalf it is read (null outside a request: then without cookies); empty for a session id note that
     * names neither the id {@code current} asked for nor {@code sessionId}.
     *
     * @throws IllegalArgumentException if the bytes are no note of this kind
     */
    static Optional<Object> decode(String note, byte[] bytes, Request current, String sessionId) {
        if (Constants.SESSION_ID_NOTE.equals(note)) {
            String requested = current == null ? null : current.getRequestedSessionId();
            return Optional.ofNullable(Arrays.asList(requested, sessionId).stream()
                    .filter(id -> id != null && MessageDigest.isEqual(SessionIds.hash(id), bytes)).findFirst().orElse(null));
        }
        return Optional.of(decodeSavedRequest(new NoteFormat.Reader(bytes), current));
    }

    private static byte[] encode(SavedRequest saved, SessionIdsOf session) {
        NoteFormat.Writer out = new NoteFormat.Writer().integer(FORMAT).string(saved.getMethod())
                .string(session.removedFromUri(saved.getRequestURI()))
                .string(session.removedFromUri(saved.getDecodedRequestURI()))
                .string(saved.getQueryString()).string(saved.getContentType());
        Integer maxInactive = saved.getOriginalMaxInactiveIntervalOptional();
        out.flag(maxInactive != null).integer(maxInactive == null ? 0 : maxInactive);
        List<String> names = new ArrayList<>();
        saved.getHeaderNames().forEachRemaining(name -> {
            if (!FROM_THE_RESTORED_REQUEST.contains(name)) {
                names.add(name);
            }
        });
        out.count(names.size());
        for (String name : names) {
            List<String> values = new ArrayList<>();
            saved.getHeaderValues(name).forEachRemaining(value -> {
                if (!session.namedIn(value)) {
                    values.add(value);
                }
            });
            out.string(name).count(values.size());
            values.forEach(out::string);
        }
        List<Locale> locales = new ArrayList<>();
        saved.getLocales().forEachRemaining(locales::add);
        out.count(locales.size());
        locales.forEach(locale -> out.string(locale.toLanguageTag()));
        ByteChunk body = saved.getBody();
        return out.bytes(body == null ? null : Arrays.copyOfRange(body.getBuffer(), body.getStart(), body.getEnd()))
                .toBytes();
    }

    private static SavedRequest decodeSavedRequest(NoteFormat.Reader in, Request current) {
        if (in.integer() != FORMAT) {
            throw new IllegalArgumentException("a saved request of an unknown format");
        }
        SavedRequest saved = new SavedRequest();
        saved.setMethod(in.string());
        saved.setRequestURI(in.string());
        saved.setDecodedRequestURI(in.string());
        saved.setQueryString(in.string());
        saved.setContentType(in.string());
        boolean hasMaxInactive = in.flag();
        int maxInactive = in.integer();
        if (hasMaxInactive) {
            saved.setOriginalMaxInactiveInterval(maxInactive);
        }
        for (int headers = in.count(); headers > 0; headers--) {
            String name = in.string();
            for (int values = in.count(); values > 0; values--) {
                saved.addHeader(name, in.string());
            }
        }
        for (int locales = in.count(); locales > 0; locales--) {
            saved.addLocale(Locale.forLanguageTag(in.string()));
        }
        byte[] body = in.bytes();
        if (body != null) {
            ByteChunk chunk = new ByteChunk();
            chunk.setBytes(body, 0, body.length);
            saved.setBody(chunk);
        }
        in.end();
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

    private static Set<String> caseInsensitive(String... names) {
        Set<String> set = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        set.addAll(List.of(names));
        return set;
    }
}
