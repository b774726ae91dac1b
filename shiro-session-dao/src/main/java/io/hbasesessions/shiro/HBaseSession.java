package io.hbasesessions.shiro;

import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.StoredSession;
import java.util.Date;
import org.apache.shiro.session.mgt.SimpleSession;

/**
 * A Shiro session read from the store. It carries the {@link StoredSession} it came from, so that
 * {@link HBaseSessionDAO#update} writes only what changed since (the store debounces touches and merges
 * attribute changes with another writer's), and its attribute map is the store's, which tracks each
 * attribute the request reads or sets.
 */
final class HBaseSession extends SimpleSession {

    private final transient StoredSession stored;
    private final boolean endedInStore;

    HBaseSession(StoredSession stored) {
        this(stored, false);
    }

    private HBaseSession(StoredSession stored, boolean endedInStore) {
        this.stored = stored;
        this.endedInStore = endedInStore;
        SessionRecord record = stored.record();
        setId(record.id());
        setStartTimestamp(Date.from(record.creationTime()));
        setLastAccessTime(Date.from(record.lastAccessTime()));
        setTimeout(SessionFields.timeoutOf(record.maxInactiveInterval()));
        SessionFields.restore(stored.attributes(), this);
        setAttributes(new ShiroAttributes(stored.attributes()));
    }

    /**
     * A session the store's expiry sweep ended and deleted, marked expired for Shiro's validation, which then
     * fires {@code onExpiration}.
     */
    static HBaseSession endedInStore(StoredSession stored) {
        HBaseSession ended = new HBaseSession(stored, true);
        ended.setExpired(true);
        return ended;
    }

    /** Whether the store already deleted this session: Shiro's update and delete of it have nothing to do. */
    boolean endedInStore() {
        return endedInStore;
    }

    StoredSession stored() {
        return stored;
    }

    /**
     * The record as Shiro changed it: access time and timeout. The login is the stored one, kept as it
     * is: Shiro's user is indexed from its principals attribute, not from a container login.
     */
    SessionRecord currentRecord() {
        SessionRecord record = stored.record();
        return record.withLastAccessTime(getLastAccessTime().toInstant())
                .withMaxInactiveInterval(SessionFields.maxInactiveOf(getTimeout()));
    }
}
