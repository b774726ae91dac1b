package io.hbasesessions.tomcat;

import io.hbasesessions.store.SessionRecord;
import java.io.Serializable;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Set;
import org.apache.catalina.Globals;
import org.apache.catalina.Manager;
import org.apache.catalina.session.StandardSession;

/**
 * A {@link StandardSession} that translates to and from the store's {@link SessionRecord}.
 *
 * <p>The authenticated principal and its auth type travel in two reserved attributes of the record,
 * which the application never sees: Tomcat's authenticators cache the principal in the session, so
 * another node needs it to recognise a FORM or programmatic login. Tomcat's {@code GenericPrincipal}
 * serializes as its name and roles, never the password. The principal's name is also the record's
 * principal, which the store indexes for "log out everywhere".
 */
class RecordSession extends StandardSession {

    static final String PRINCIPAL_ATTRIBUTE = "io.hbasesessions.tomcat.principal";
    static final String AUTH_TYPE_ATTRIBUTE = "io.hbasesessions.tomcat.authType";

    /** Per-node objects Tomcat keeps in a session and never persists either (StandardSession excludes them). */
    private static final Set<String> NODE_LOCAL_ATTRIBUTES =
            Set.of("javax.security.auth.subject", Globals.GSS_CREDENTIAL_ATTR);

    RecordSession(Manager manager) {
        super(manager);
    }

    /**
     * Becomes the stored session {@code record} under {@code sessionId} (the id as the client sent it).
     * Sets the fields directly: no events fire, and the manager decides whether this copy is registered.
     */
    void restore(String sessionId, SessionRecord record, boolean restoreAuthentication) {
        id = sessionId;
        creationTime = record.creationTime().toEpochMilli();
        lastAccessedTime = record.lastAccessTime().toEpochMilli();
        thisAccessedTime = lastAccessedTime;
        maxInactiveInterval = (int) record.maxInactiveInterval().toSeconds();
        isNew = false;
        isValid = true;
        record.attributes().forEach((name, value) -> {
            if (!isReserved(name)) {
                attributes.put(name, value);
            }
        });
        if (restoreAuthentication && record.attributes().get(PRINCIPAL_ATTRIBUTE) instanceof Principal saved) {
            principal = saved;
            authType = (String) record.attributes().get(AUTH_TYPE_ATTRIBUTE);
        }
    }

    /**
     * The record of any {@code StandardSession} (PersistentManager creates plain ones), under its id
     * without route. Attributes the manager's filters keep from distribution stay out. {@code stored}
     * is the record the session was loaded from, or {@code null}.
     */
    static SessionRecord toRecord(StandardSession session, boolean persistAuthentication, SessionRecord stored) {
        Principal principal = session.getPrincipal();
        SessionRecord.Builder record = SessionRecord
                .builder(SessionIds.raw(session.getIdInternal()), Instant.ofEpochMilli(session.getCreationTimeInternal()))
                .lastAccessTime(Instant.ofEpochMilli(session.getThisAccessedTimeInternal()))
                .maxInactiveInterval(Duration.ofSeconds(session.getMaxInactiveInterval()))
                .principal(principalName(principal, stored));
        for (String name : Collections.list(session.getAttributeNames())) {
            Object value = session.getAttribute(name);
            if (value != null && !isReserved(name) && session.isAttributeDistributable(name, value)) {
                record.attribute(name, value);
            }
        }
        if (persistAuthentication && principal instanceof Serializable) {
            record.attribute(PRINCIPAL_ATTRIBUTE, principal);
            record.attribute(AUTH_TYPE_ATTRIBUTE, session.getAuthType());
        }
        return record.build();
    }

    /**
     * The principal to index. One another container recorded (a Jetty login) stays when Tomcat knows
     * no user: a request on this node must not log the user out of "log out everywhere". Only Tomcat's
     * own login, gone from the session since the load, is a logout.
     */
    private static String principalName(Principal principal, SessionRecord stored) {
        if (principal != null) {
            return principal.getName();
        }
        if (stored == null || stored.attributes().containsKey(PRINCIPAL_ATTRIBUTE)) {
            return null;
        }
        return stored.principal().orElse(null);
    }

    private static boolean isReserved(String name) {
        return name.equals(PRINCIPAL_ATTRIBUTE) || name.equals(AUTH_TYPE_ATTRIBUTE) || NODE_LOCAL_ATTRIBUTES.contains(name);
    }
}
