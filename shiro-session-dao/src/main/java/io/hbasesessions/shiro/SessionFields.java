package io.hbasesessions.shiro;

import io.hbasesessions.store.SessionAttributes;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.mgt.SimpleSession;

/**
 * How the fields of Shiro's {@link SimpleSession} map onto the store's record, for those the record has
 * no place for (host, stop time, expired flag): attributes under reserved names, of immutable types, so
 * that an unchanged one is never rewritten.
 */
final class SessionFields {

    static final String HOST = "io.hbasesessions.shiro.host";
    static final String STOP_TIME_MILLIS = "io.hbasesessions.shiro.stopTimeMillis";
    static final String EXPIRED = "io.hbasesessions.shiro.expired";

    private SessionFields() {
    }

    static boolean isReserved(String name) {
        return name.equals(HOST) || name.equals(STOP_TIME_MILLIS) || name.equals(EXPIRED);
    }

    /**
     * Shiro's timeout in milliseconds as the store's idle interval. Shiro: negative never expires, 0 expires
     * at once. The store: 0 or less never idles out. So a negative timeout is zero, and 0 is the shortest
     * interval the store keeps, one millisecond (the session is gone on its next read).
     */
    static Duration maxInactiveOf(long timeoutMillis) {
        return timeoutMillis < 0 ? Duration.ZERO : Duration.ofMillis(Math.max(1, timeoutMillis));
    }

    /** The store's idle interval as Shiro's timeout: one that never idles out is negative for Shiro. */
    static long timeoutOf(Duration maxInactive) {
        return maxInactive.isZero() || maxInactive.isNegative() ? -1 : maxInactive.toMillis();
    }

    /** The reserved attributes of {@code session}'s fields: what {@link #restore} reads back. */
    static Map<String, Object> of(Session session) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (session.getHost() != null) {
            fields.put(HOST, session.getHost());
        }
        if (session instanceof SimpleSession simple) {
            if (simple.getStopTimestamp() != null) {
                fields.put(STOP_TIME_MILLIS, simple.getStopTimestamp().getTime());
            }
            if (simple.isExpired()) {
                fields.put(EXPIRED, Boolean.TRUE);
            }
        }
        return fields;
    }

    /** Sets or removes each reserved attribute of {@code attributes} to match {@code session}: unchanged ones stay as they are. */
    static void write(Session session, SessionAttributes attributes) {
        Map<String, Object> fields = of(session);
        for (String name : new String[] {HOST, STOP_TIME_MILLIS, EXPIRED}) {
            Object value = fields.get(name);
            if (value == null) {
                attributes.remove(name);
            } else if (!Objects.equals(value, attributes.get(name))) {
                attributes.put(name, value);
            }
        }
    }

    /** Copies the reserved attributes back into the session's fields. */
    static void restore(SessionAttributes attributes, SimpleSession session) {
        session.setHost((String) attributes.get(HOST));
        Object stopTime = attributes.get(STOP_TIME_MILLIS);
        session.setStopTimestamp(stopTime instanceof Long millis ? new Date(millis) : null);
        session.setExpired(Boolean.TRUE.equals(attributes.get(EXPIRED)));
    }
}
