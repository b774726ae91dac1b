package io.hbasesessions.jetty;

import io.hbasesessions.store.NoteFormat;
import io.hbasesessions.store.SessionAttributes;
import io.hbasesessions.store.SessionIds;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.util.Fields;

/**
 * What Jetty's FORM authenticator keeps in the session between the login page and the request it restores
 * after the login: the request's URI ({@code HttpURI}) and, for a form POST, its fields ({@code Fields}). Both
 * are Jetty's own classes, which the web application's class loader cannot read back on the next node (Jetty
 * hides them from it): they travel as container notes, in a plain format, and come back as Jetty's objects.
 * The method it saves is a {@code String} and travels as the attribute it is.
 */
final class JettyFormNotes {

    /** The FormAuthenticator's attribute names (its {@code __J_URI} and {@code __J_POST}). */
    static final String URI = "org.eclipse.jetty.security.form_URI";
    static final String POST = "org.eclipse.jetty.security.form_POST";

    private JettyFormNotes() {
    }

    /** Whether {@code value} under {@code name} is Jetty's form state, which {@link #write} keeps as a note. */
    static boolean travels(String name, Object value) {
        return URI.equals(name) && value instanceof HttpURI || POST.equals(name) && value instanceof Fields;
    }

    static boolean isNote(String name) {
        return URI.equals(name) || POST.equals(name);
    }

    /** Keeps {@code value} as a note; a URI without a path parameter naming the session ({@code ;jsessionid=}). */
    static void write(String name, Object value, String sessionId, SessionAttributes attributes) {
        if (value instanceof HttpURI uri) {
            attributes.putNote(name, new NoteFormat.Writer().string(SessionIds.uriWithout(uri.asString(),
                    List.of(sessionId))).toBytes());
        } else if (value instanceof Fields fields) {
            NoteFormat.Writer out = new NoteFormat.Writer().count(fields.getSize());
            for (Fields.Field field : fields) {
                List<String> values = field.getValues();
                out.string(field.getName()).count(values.size());
                values.forEach(out::string);
            }
            attributes.putNote(name, out.toBytes());
        }
    }

    /**
     * The form state stored under {@code name}, as Jetty's object; empty when there is none.
     *
     * @throws IllegalArgumentException if the note does not parse
     */
    static Optional<Object> read(String name, SessionAttributes attributes) {
        return attributes.note(name).map(bytes -> {
            NoteFormat.Reader in = new NoteFormat.Reader(bytes);
            Object value = URI.equals(name) ? HttpURI.from(in.string()) : fields(in);
            in.end();
            return value;
        });
    }

    private static Fields fields(NoteFormat.Reader in) {
        Fields fields = new Fields();
        for (int names = in.count(); names > 0; names--) {
            String name = in.string();
            for (int values = in.count(); values > 0; values--) {
                fields.add(name, in.string());
            }
        }
        return fields;
    }
}
