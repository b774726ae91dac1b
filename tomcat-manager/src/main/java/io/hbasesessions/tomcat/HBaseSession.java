package io.hbasesessions.tomcat;

import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.SessionPrincipal;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.StoredSession;
import jakarta.servlet.http.HttpSessionActivationListener;
import jakarta.servlet.http.HttpSessionEvent;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.catalina.connector.Request;
import org.apache.catalina.realm.GenericPrincipal;
import org.apache.catalina.session.StandardSession;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * One request's copy of a session held in HBase: a {@link StandardSession} whose attribute map is the
 * store's {@link io.hbasesessions.store.SessionAttributes} (decoded when first read, tracked for the
 * save) and whose metadata translates to and from the store's {@link SessionRecord}. It lives for that
 * request only: loaded (or created) by the manager when the request first asks for it, then saved, passivated
 * and dropped by the request's {@link RequestSessions}, in the store it came from. The notes Tomcat's FORM login
 * needs on the next request travel with it ({@link FormLoginNotes}); the others live as long as the copy. A
 * login travels as the record's {@link SessionPrincipal} (name, roles, auth type; never a password) and comes
 * back as a {@link GenericPrincipal}, whichever container logged the user in.
 */
final class HBaseSession extends StandardSession {

    private static final Log log = LogFactory.getLog(HBaseSession.class);

    private final HBaseSessionManager sessionManager;
    private volatile SessionStore store;
    private volatile StoredSession stored;
    /** Whether Tomcat's login is this copy's to store (the manager's {@code persistAuthentication}). */
    private volatile boolean persistLogin;
    /** Counts changes of metadata (login, timeout, invalidation), for {@link #changes()}. */
    private volatile long metadataChanges;
    /** Set for a session the store's expiry sweep already deleted: its expiry only fires Tomcat's events. */
    private volatile boolean endedInStore;

    HBaseSession(HBaseSessionManager manager) {
        super(manager);
        this.sessionManager = manager;
    }

    /** Binds a session the manager just created to {@code session}, new in {@code store}: its attributes become this session's. */
    void bindNew(SessionStore store, StoredSession session, boolean persistLogin) {
        this.store = store;
        this.persistLogin = persistLogin;
        stored = session;
        attributes = session.attributes();
    }

    /**
     * Becomes {@code store}'s stored {@code session} under {@code id} (canonical: the raw id with this node's
     * route), with its login when {@code persistLogin}. Sets the fields directly: no events fire, and the
     * manager decides whether this copy is registered.
     */
    void restore(String canonicalId, SessionStore store, StoredSession session, boolean persistLogin) {
        SessionRecord record = session.record();
        this.store = store;
        this.persistLogin = persistLogin;
        stored = session;
        id = canonicalId;
        creationTime = record.creationTime().toEpochMilli();
        lastAccessedTime = record.lastAccessTime().toEpochMilli();
        thisAccessedTime = lastAccessedTime;
        maxInactiveInterval = (int) record.maxInactiveInterval().toSeconds();
        isNew = false;
        isValid = true;
        attributes = session.attributes();
        if (persistLogin) {
            record.login().ifPresent(login -> {
                principal = new GenericPrincipal(login.name(), login.roles());
                authType = login.authType();
            });
        }
    }

    StoredSession stored() {
        return stored;
    }

    /** The store's id of this session: Tomcat's id without its route. */
    String rawId() {
        return SessionIds.withoutRoute(getIdInternal());
    }

    /**
     * The record to save. With {@code persistLogin} the login is Tomcat's; without it Tomcat neither
     * restores nor stores logins, so a login another container stored stays unless Tomcat logged
     * someone in here.
     */
    SessionRecord record() {
        Optional<SessionPrincipal> login = loginOf(getPrincipal(), getAuthType());
        if (login.isEmpty() && !persistLogin) {
            login = stored.record().login();
        }
        return new SessionRecord(rawId(), Instant.ofEpochMilli(getCreationTimeInternal()),
                Instant.ofEpochMilli(getThisAccessedTimeInternal()), Duration.ofSeconds(getMaxInactiveInterval()), login);
    }

    static Optional<SessionPrincipal> loginOf(Principal principal, String authType) {
        if (principal == null) {
            return Optional.empty();
        }
        List<String> roles = principal instanceof GenericPrincipal generic ? List.of(generic.getRoles()) : List.of();
        return Optional.of(new SessionPrincipal(principal.getName(), roles, authType));
    }

    /** Whether Tomcat keeps this attribute from distribution (its own excluded names, the manager's filters). */
    boolean excludes(String name, Object value) {
        return exclude(name, value);
    }

    /** A number that grows whenever this copy changes in a way a save must write (set and removed attributes included). */
    long changes() {
        return metadataChanges + stored.attributes().mutations();
    }

    /**
     * A note that travels is stored at once: the FORM authenticator sets it right before it forwards to the
     * login page or redirects, responses it commits itself. Any other note stays with this copy, and says so once.
     */
    @Override
    public void setNote(String name, Object value) {
        super.setNote(name, value);
        if (!FormLoginNotes.travels(name)) {
            sessionManager.noteStaysWithTheRequest(name);
            return;
        }
        FormLoginNotes.encode(name, value, idsOfThisSession()).ifPresentOrElse(
                bytes -> stored.attributes().putNote(name, bytes), () -> stored.attributes().removeNote(name));
        saveNow();
    }

    /** A note that travels is read from the stored session the first time this copy is asked for it. */
    @Override
    public Object getNote(String name) {
        Object note = super.getNote(name);
        if (note != null || !FormLoginNotes.travels(name)) {
            return note;
        }
        Optional<byte[]> bytes = stored.attributes().note(name);
        if (bytes.isEmpty()) {
            return null;
        }
        try {
            Optional<Object> decoded = FormLoginNotes.decode(name, bytes.get(), currentRequest(), getIdInternal());
            decoded.ifPresent(value -> super.setNote(name, value));
            return decoded.orElse(null);
        } catch (IllegalArgumentException e) {
            log.warn("Session note " + name + " is unreadable and left out: " + e.getMessage());
            return null;
        }
    }

    private Request currentRequest() {
        RequestSessions request = RequestSessions.current(sessionManager);
        return request == null ? null : request.request();
    }

    private FormLoginNotes.SessionIdsOf idsOfThisSession() {
        Request request = currentRequest();
        return new FormLoginNotes.SessionIdsOf(Arrays.asList(getIdInternal(),
                request == null ? null : request.getRequestedSessionId()));
    }

    @Override
    public void removeNote(String name) {
        super.removeNote(name);
        if (FormLoginNotes.travels(name)) {
            stored.attributes().removeNote(name);
        }
    }

    @Override
    public Iterator<String> getNoteNames() {
        Set<String> names = new HashSet<>();
        super.getNoteNames().forEachRemaining(names::add);
        stored.attributes().noteNames().stream().filter(FormLoginNotes::travels).forEach(names::add);
        return names.iterator();
    }

    /** A login or logout is stored at once: an authenticator that makes one commits its redirect or challenge itself. */
    @Override
    public void setPrincipal(Principal principal) {
        metadataChanges++;
        super.setPrincipal(principal);
        saveNow();
    }

    /**
     * Saves the sessions of the request this thread serves, now: for what Tomcat's authenticators change right
     * before they commit a response themselves, past the request's guards (the login page they forward to, the
     * redirect after {@code j_security_check}), so that the next request, on any node, finds it.
     */
    private void saveNow() {
        RequestSessions request = RequestSessions.current(sessionManager);
        if (request != null) {
            request.save();
        }
    }

    /** Writes what changed; a session invalidated or revoked elsewhere meanwhile is not stored again, and ends here. */
    void save() {
        if (store.save(stored, record()) == SaveResult.GONE) {
            log.debug("A session was invalidated or revoked elsewhere during the request; not stored again");
            setValid(false);
        }
    }

    /**
     * The request is over for this copy: the activation listeners among the attributes it decoded hear that it
     * leaves this JVM (the others were never activated here; Tomcat's {@link #passivate()} would decode them all).
     */
    void passivateDecoded() {
        for (Object value : stored.attributes().liveValues()) {
            if (value instanceof HttpSessionActivationListener listener) {
                listener.sessionWillPassivate(new HttpSessionEvent(getSession()));
            }
        }
    }

    /** Drops this copy: its manager forgets it and a pessimistic lease its load took is given back (if HBase can be asked). */
    void drop() {
        sessionManager.forget(this);
        try {
            store.release(stored);
        } catch (SessionStoreException e) {
            log.warn("Could not give back a session lease; it ends with its timeout: " + e.getMessage());
        }
    }

    @Override
    public void setMaxInactiveInterval(int interval) {
        metadataChanges++;
        super.setMaxInactiveInterval(interval);
    }

    /**
     * No idle expiry on a copy: it was accessed when its request began, and whether a stored session
     * has been idle too long is decided by the store when a request loads it, from every node's accesses.
     */
    @Override
    public boolean isValid() {
        return isValidInternal();
    }

    /** Expires, with every event, a session the store's expiry sweep ended (and deleted). */
    void expireEndedInStore() {
        endedInStore = true;
        expire(true);
    }

    /**
     * Invalidation deletes the stored session first: if HBase cannot be reached, the exception reaches
     * the application and the session is left valid here and everywhere, rather than gone only here.
     */
    @Override
    public void expire(boolean notify) {
        if (isValidInternal() && !expiring && !endedInStore) {
            if (stored.isStored()) {
                store.delete(stored);
            }
            metadataChanges++;
        }
        super.expire(notify);
    }
}
