package io.hbasesessions.store;

import io.hbasesessions.store.codec.ClassRules;
import io.hbasesessions.store.codec.CodecException;
import io.hbasesessions.store.codec.ReadLimits;
import io.hbasesessions.store.codec.SessionCodec;
import java.lang.System.Logger.Level;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which attribute values a web application's sessions store, and how stored ones are decoded: the attribute
 * class filter and class rules of a store's settings, one codec per {@link SerializerKind}. Thread-safe; one
 * per store.
 */
final class AttributePolicy {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());

    private final StoreSettings settings;
    private final Webapp webapp;
    private final LiveCounters counters;
    private final ClassRules classRules;
    private final ReadLimits limits;
    private final Map<SerializerKind, SessionCodec> codecs = new EnumMap<>(SerializerKind.class);
    /** Classes of values the attribute class filter kept from being stored, each warned about once. */
    private final Set<String> classesKeptOnTheNode = ConcurrentHashMap.newKeySet();

    AttributePolicy(StoreSettings settings, Webapp webapp, LiveCounters counters) {
        this.settings = settings;
        this.webapp = webapp;
        this.counters = counters;
        this.classRules = ClassRules.of(settings, webapp.classLoader());
        this.limits = new ReadLimits(settings.get(Setting.MAX_SESSION_BYTES));
        for (SerializerKind kind : SerializerKind.values()) {
            codecs.put(kind, SessionCodec.of(kind, classRules, limits));
        }
    }

    /** The serializer new states are written with. */
    SerializerKind writeKind() {
        return settings.get(Setting.SERIALIZER);
    }

    /** This store's codec for states written with {@code kind}. */
    SessionCodec codec(SerializerKind kind) {
        return codecs.get(kind);
    }

    /** A codec for {@code kind} deciding classes as the application whose classes {@code valueClasses} defines. */
    SessionCodec codecFor(SerializerKind kind, ClassLoader valueClasses) {
        return SessionCodec.of(kind, ClassRules.of(settings, valueClasses), limits);
    }

    /** The working copy of the session in {@code row}; {@code lease} is the token held on it, or null. */
    StoredSession loaded(String sessionId, SessionKey key, SessionRow row, String lease) {
        return new StoredSession(row.state().record(sessionId), row.state(), row.version(),
                attributesOf(row.state(), key), lease, false, row.stale());
    }

    /** The attributes of a state, decoded on first read with the codec the state was written with. */
    SessionAttributes attributesOf(StoredState state, SessionKey key) {
        SessionCodec codec = codecs.get(state.codec());
        String keyHex = key == null ? "(new)" : key.shortHex();
        return new SessionAttributes(state.attributeBytes(), new SessionAttributes.Decoding() {
            @Override
            public SessionCodec codec() {
                return codec;
            }

            @Override
            public void undecodable(String name, CodecException failure) {
                counters.increment(failure.refused() ? StoreCounter.REFUSED_ATTRIBUTES
                        : StoreCounter.UNREADABLE_ATTRIBUTES);
                // The reason quotes class names read from the stored bytes: no line breaks of theirs reach the log.
                LOG.log(Level.WARNING, "Session {0}: attribute ''{1}'' {2} and is left out (its stored bytes are kept): "
                        + "{3}", keyHex, name, failure.refused() ? "was refused" : "cannot be read",
                        failure.getMessage().replaceAll("\\p{Cntrl}", "?"));
            }
        }, webapp.container()::hides, this::stores);
    }

    /**
     * What the web application lets the store keep, of a class the attribute class filter allows: a value
     * the filter refuses would be refused when read back, so it lives on this node only (as Tomcat keeps
     * values its own filter refuses from distribution). So does a value the container keeps under its own
     * attribute names (Tomcat's CSRF nonces, Jetty's saved FORM post) of a class the class rules refuse: the
     * container's, not the application's, it would fail the request it was set in.
     */
    private boolean stores(String name, Object value) {
        if (!webapp.stores().test(name, value)) {
            return false;
        }
        Class<?> type = value.getClass();
        String keptBecause = !classRules.allowsValueOf(type) ? "do not match attributeClassFilter"
                : webapp.container().owns(name) && classRules.refusalToInstantiate(type) != null
                        ? "are the container's own, and not a class session values may be of" : null;
        if (keptBecause == null) {
            return true;
        }
        if (classesKeptOnTheNode.add(type.getName())) {
            LOG.log(Level.WARNING, "Attribute values of class {0} {1}: they are kept on this node, not stored",
                    type.getName(), keptBecause);
        }
        return false;
    }
}
