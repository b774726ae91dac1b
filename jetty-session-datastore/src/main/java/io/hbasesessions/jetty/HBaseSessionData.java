package io.hbasesessions.jetty;

import io.hbasesessions.store.StoredSession;
import java.util.function.Consumer;
import org.eclipse.jetty.session.SessionData;

/**
 * Jetty's session data on the shared store's {@link StoredSession}: its attribute map is the store's
 * (decoded when first read, tracked for the save), and it carries the stored state the next save is
 * computed against. It lives exactly as long as Jetty keeps this data.
 */
final class HBaseSessionData extends SessionData {

    private static final System.Logger LOG = System.getLogger(HBaseSessionData.class.getName());

    private final transient StoredSession stored;
    private final transient Consumer<String> renewalListener;
    private transient boolean gone;

    HBaseSessionData(StoredSession stored, String contextPath, String vhost, long accessed, long lastAccessed,
            Consumer<String> renewalListener) {
        super(stored.record().id(), contextPath, vhost, stored.record().creationTime().toEpochMilli(), accessed,
                lastAccessed, stored.record().maxInactiveInterval().toMillis());
        this.stored = stored;
        this.renewalListener = renewalListener;
        _attributes = stored.attributes();
    }

    /**
     * Always true. Jetty only flags {@code setAttribute} calls, so an object changed in place would
     * never reach the store, and a {@code savePeriodSec} would skip saves. The store finds what changed
     * itself and writes nothing when nothing did (touches are debounced by {@code touchIntervalSeconds}).
     */
    @Override
    public boolean isDirty() {
        return true;
    }

    /** Jetty's FORM state comes back from its note as Jetty's object ({@link JettyFormNotes}). */
    @Override
    public Object getAttribute(String name) {
        if (!JettyFormNotes.isNote(name)) {
            return super.getAttribute(name);
        }
        try {
            return JettyFormNotes.read(name, stored.attributes()).orElseGet(() -> super.getAttribute(name));
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "Jetty''s form login state {0} is unreadable and left out: {1}", name,
                    e.getMessage());
            return null;
        }
    }

    /** Jetty's FORM state is kept as a note (its classes are Jetty's, which no web application can read back). */
    @Override
    public Object setAttribute(String name, Object value) {
        if (!JettyFormNotes.isNote(name) || value != null && !JettyFormNotes.travels(name, value)) {
            return super.setAttribute(name, value);
        }
        Object previous = getAttribute(name);
        if (value == null) {
            stored.attributes().removeNote(name);
            super.setAttribute(name, null);
        } else {
            JettyFormNotes.write(name, value, getId(), stored.attributes());
        }
        return previous;
    }

    /** Jetty renames stored data by deleting the old id first; the listener lets the store defer that delete. */
    @Override
    public void setId(String id) {
        if (stored.isStored() && !id.equals(getId())) {
            renewalListener.accept(getId());
        }
        super.setId(id);
    }

    StoredSession stored() {
        return stored;
    }

    /**
     * True once the store found the session deleted or revoked by another node while this one used it:
     * storing it again would bring back what is gone.
     */
    boolean isGone() {
        return gone;
    }

    void markGone() {
        this.gone = true;
    }
}
