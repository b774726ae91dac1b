package io.hbasesessions.jetty;

import io.hbasesessions.store.SessionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
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

    private SessionDataMapping() {
    }

    /**
     * The record to store for {@code data} under {@code id}. Extras written by another container are
     * kept. Jetty's last node and cookie-set time are deliberately not stored: both change whenever a
     * non-sticky request lands on another node (Jetty re-sets the cookie with the new node suffix), and
     * would turn every such read into a write. Without them Jetty only refreshes a persistent cookie
     * (maxCookieAge with refreshCookieAge) sooner after a change of node.
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
        data.putAllAttributes(record.attributes());
    }

    /**
     * Makes {@code data}'s attributes those of {@code merged}, the state the store wrote after applying
     * this request's changes on top of another writer's. Otherwise the next save of {@code data} would
     * read the other writer's attributes as removed by this request.
     */
    static void takeAttributesOf(SessionRecord merged, SessionData data) {
        for (String name : Set.copyOf(data.getKeys())) {
            if (!merged.attributes().containsKey(name)) {
                data.setAttribute(name, null);
            }
        }
        data.putAllAttributes(merged.attributes());
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
