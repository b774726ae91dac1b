package io.hbasesessions.jetty;

import io.hbasesessions.store.LoadedSession;
import java.util.function.Consumer;
import org.eclipse.jetty.session.SessionData;

/**
 * Jetty's session data plus what the shared store needs to save it: the {@link LoadedSession} it was
 * read as (or last written as). It lives exactly as long as Jetty keeps this data, so nothing has to
 * be looked up or cleaned up per request.
 */
final class HBaseSessionData extends SessionData {

    private transient LoadedSession stored;
    private transient boolean unstorable;
    private final transient Consumer<String> renewalListener;

    HBaseSessionData(String id, String contextPath, String vhost, long created, long accessed, long lastAccessed,
            long maxInactiveMs, Consumer<String> renewalListener) {
        super(id, contextPath, vhost, created, accessed, lastAccessed, maxInactiveMs);
        this.renewalListener = renewalListener;
    }

    /**
     * Always true. Jetty only flags {@code setAttribute} calls, so an object changed in place would
     * never reach the store, and a {@code savePeriodSec} would skip saves. The store compares the
     * serialized bytes itself and writes nothing when nothing changed (touches are debounced by
     * {@code touchIntervalSeconds}); with {@code flushOnResponseCommit} this also means every change
     * is stored before the response leaves, so the next request, on any node, sees it.
     */
    @Override
    public boolean isDirty() {
        return true;
    }

    /** Jetty renames stored data by deleting the old id first; the listener lets the store defer that delete. */
    @Override
    public void setId(String id) {
        if (stored != null && !id.equals(getId())) {
            renewalListener.accept(getId());
        }
        super.setId(id);
    }

    /** The state this data was read as or last written as; {@code null} if it was never stored. */
    LoadedSession stored() {
        return stored;
    }

    void stored(LoadedSession loaded) {
        this.stored = loaded;
    }

    /**
     * True for a session created while the store was unreachable (failMode {@code new_session}), or
     * found deleted by another node while this one used it: storing it would bring back what is gone.
     */
    boolean isUnstorable() {
        return unstorable;
    }

    void markUnstorable() {
        this.unstorable = true;
    }
}
