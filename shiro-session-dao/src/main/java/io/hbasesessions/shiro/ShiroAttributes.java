package io.hbasesessions.shiro;

import io.hbasesessions.store.SessionAttributes;
import java.util.AbstractMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A Shiro session's attribute map on the store's {@link SessionAttributes}, which tracks what each request
 * reads and sets so that a save writes only what changed. Shiro types keys as {@code Object}, the store
 * names attributes by {@code String} (shared with Tomcat and Jetty applications of the same key scope):
 * a key of another type is refused rather than encoded, because no other reader could find it by name.
 * The names this module keeps Shiro's own session fields under are hidden.
 */
final class ShiroAttributes extends AbstractMap<Object, Object> {

    private final SessionAttributes stored;

    ShiroAttributes(SessionAttributes stored) {
        this.stored = stored;
    }

    @Override
    public Object get(Object key) {
        return isApplicationName(key) ? stored.get(key) : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public Object put(Object key, Object value) {
        String name = checkedName(key);
        return value == null ? stored.remove(name) : stored.put(name, value);
    }

    @Override
    public Object remove(Object key) {
        return isApplicationName(key) ? stored.remove(key) : null;
    }

    /** A snapshot: changing it does not change the session. */
    @Override
    public Set<Entry<Object, Object>> entrySet() {
        Set<Entry<Object, Object>> entries = new LinkedHashSet<>();
        stored.entrySet().stream().filter(entry -> isApplicationName(entry.getKey()))
                .forEach(entry -> entries.add(Map.entry(entry.getKey(), entry.getValue())));
        return entries;
    }

    /** @throws IllegalArgumentException for a key that is no {@code String}, or one of this module's own names */
    static String checkedName(Object key) {
        if (!(key instanceof String name)) {
            throw new IllegalArgumentException("Session attribute keys must be Strings to be stored in HBase (they "
                    + "are attribute names, shared with every application of the key scope); got a "
                    + (key == null ? "null key" : key.getClass().getName()));
        }
        if (SessionFields.isReserved(name)) {
            throw new IllegalArgumentException("Session attribute name '" + name + "' is reserved for the "
                    + "session's own fields");
        }
        return name;
    }

    private static boolean isApplicationName(Object key) {
        return key instanceof String name && !SessionFields.isReserved(name);
    }
}
