package io.hbasesessions.jetty;

import io.hbasesessions.store.SessionRecord;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.jetty.security.AuthenticationState;
import org.eclipse.jetty.security.authentication.SessionAuthentication;
import org.eclipse.jetty.session.SessionData;

/**
 * Translates Jetty's {@link SessionData} to and from the container-neutral {@link SessionRecord}, so
 * that Jetty and Tomcat nodes with one {@code keyScope} share a session. Jetty's {@code accessed} (the
 * start of the latest request) is the record's last access; its {@code lastAccessed} (the request
 * before) is derived again by Jetty on the next access.
 */
final class SessionDataMapping {

    /** Jetty's cookie-set time, kept so a persistent cookie's refresh age survives a change of node. */
    static final String COOKIE_SET_EXTRA = "jetty.cookieSetMillis";

    private SessionDataMapping() {
    }

    /**
     * The record to store for {@code data} under {@code id}. Extras written by another container are
     * kept. Jetty's last node is deliberately not stored: it changes whenever a non-sticky request
     * lands on another node and would turn every such read into a write.
     */
    static SessionRecord toRecord(String id, SessionData data, SessionRecord loaded) {
        SessionRecord.Builder record = loaded == null
                ? SessionRecord.builder(id, Instant.ofEpochMilli(data.getCreated()))
                : loaded.toBuilder().id(id);
        return record
                .lastAccessTime(Instant.ofEpochMilli(data.getAccessed()))
                .maxInactiveInterval(Duration.ofMillis(data.getMaxInactiveMs()))
                .principal(principalOf(data, loaded))
                .attributes(data.getAllAttributes())
                .extra(COOKIE_SET_EXTRA, data.getCookieSet() > 0 ? Long.toString(data.getCookieSet()) : null)
                .build();
    }

    /**
     * Copies what Jetty's constructor does not take into session data made from {@code record}'s id,
     * times and max-inactive interval.
     */
    static void copyInto(SessionRecord record, SessionData data) {
        long lastAccess = record.lastAccessTime().toEpochMilli();
        data.calcAndSetExpiry(lastAccess);
        data.setLastSaved(lastAccess);
        String cookieSet = record.extras().get(COOKIE_SET_EXTRA);
        data.setCookieSet(cookieSet == null ? 0 : Long.parseLong(cookieSet));
        data.putAllAttributes(record.attributes());
    }

    /**
     * The user Jetty's authentication keeps in this session (the FORM authenticator stores it as an
     * attribute). A principal set by another container is kept unless Jetty's own login attribute was
     * removed here, which is a logout.
     */
    private static String principalOf(SessionData data, SessionRecord loaded) {
        Object authentication = data.getAttribute(SessionAuthentication.AUTHENTICATED_ATTRIBUTE);
        if (authentication != null) {
            return authentication instanceof AuthenticationState.Succeeded succeeded
                    ? succeeded.getUserPrincipal().getName()
                    : null;
        }
        if (loaded == null || loaded.attributes().containsKey(SessionAuthentication.AUTHENTICATED_ATTRIBUTE)) {
            return null;
        }
        return loaded.principal().orElse(null);
    }
}
