package io.hbasesessions.store.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Proxy;

/**
 * Java deserialization of one stored value under the read rules: every class name, and each interface
 * of a dynamic proxy, is admitted by {@link ClassRules} (by name before it is loaded, by origin once it is)
 * and resolved with the web application's class loader (attribute classes usually exist only inside the
 * WAR); Java serialization itself refuses to make objects of classes that are not Serializable. An {@link ObjectInputFilter} bounds nesting and array lengths
 * (which also size the JDK's own collections as they are read) by {@link ReadLimits}; the references
 * and bytes it can read are bounded by the stream itself, the value's bytes. A JVM-wide
 * {@code jdk.serialFilter} still applies besides.
 */
class WebappObjectInputStream extends ObjectInputStream {

    private final ClassRules rules;
    private final Unfolding unfolding;
    private boolean attributeValueNext;

    /**
     * @param unfolding where each decoded object is measured; null when the caller measures them
     * @param holdsAttributeValue whether the stream's first object is the attribute value itself, whose
     *     class the rules check as such
     */
    WebappObjectInputStream(byte[] bytes, ClassRules rules, ReadLimits limits, Unfolding unfolding,
            boolean holdsAttributeValue) throws IOException {
        super(new ByteArrayInputStream(bytes));
        this.rules = rules;
        this.unfolding = unfolding;
        this.attributeValueNext = holdsAttributeValue;
        setObjectInputFilter(filter(bytes.length, limits));
        if (unfolding != null) {
            enableResolveObject(true);
        }
    }

    /** Reads the attribute value; one without a class description of its own (a String) is checked by its class. */
    Object readAttributeValue() throws IOException, ClassNotFoundException {
        Object value = readObject();
        if (attributeValueNext && value != null) {
            rules.admit(value.getClass().getName(), true);
        }
        return value;
    }

    private static ObjectInputFilter filter(int streamBytes, ReadLimits limits) {
        long maxArrayLength = limits.elementBudget(streamBytes);
        ObjectInputFilter bounds = info -> {
            if (info.depth() > ReadLimits.MAX_DEPTH) {
                throw new DecodingRefusedException("objects nested deeper than " + ReadLimits.MAX_DEPTH);
            }
            if (info.arrayLength() > maxArrayLength) {
                throw new DecodingRefusedException("an array or collection of " + info.arrayLength() + " elements in "
                        + streamBytes + " bytes: damaged or hostile bytes");
            }
            return ObjectInputFilter.Status.UNDECIDED;
        };
        ObjectInputFilter jvmWide = ObjectInputFilter.Config.getSerialFilter();
        return jvmWide == null ? bounds : ObjectInputFilter.merge(bounds, jvmWide);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
        return rules.admit(description.getName(), takeAttributeValue());
    }

    // ObjectInputStream's own contract hands back a proxy class, not an instance, so the deprecated
    // class-returning factory is the one that fits (the JDK's ObjectInputStream uses it too).
    @SuppressWarnings("deprecation")
    @Override
    protected Class<?> resolveProxyClass(String[] interfaceNames) throws IOException, ClassNotFoundException {
        boolean attributeValue = takeAttributeValue();
        Class<?>[] interfaces = new Class<?>[interfaceNames.length];
        for (int i = 0; i < interfaceNames.length; i++) {
            // A proxy's class is generated: its first interface stands for it.
            interfaces[i] = rules.admit(interfaceNames[i], attributeValue && i == 0);
        }
        try {
            return Proxy.getProxyClass(rules.applicationLoader(), interfaces);
        } catch (IllegalArgumentException e) {
            throw new ClassNotFoundException("cannot define a proxy of " + String.join(", ", interfaceNames), e);
        }
    }

    /** Each object as it is complete, before the object holding it sees it (a hash set hashes it then). */
    @Override
    protected Object resolveObject(Object object) throws IOException {
        if (unfolding != null) {
            unfolding.completed(object);
        }
        return object;
    }

    private boolean takeAttributeValue() {
        boolean attributeValue = attributeValueNext;
        attributeValueNext = false;
        return attributeValue;
    }
}
