package io.hbasesessions.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;

/**
 * Plain Java serialization, resolving classes through the web application's class loader, under the
 * read rules ({@link WebappObjectInputStream}).
 */
final class JavaCodec implements SessionCodec {

    private final ClassRules rules;
    private final ReadLimits limits;

    JavaCodec(ClassRules rules, ReadLimits limits) {
        this.rules = rules;
        this.limits = limits;
    }

    @Override
    public SerializerKind kind() {
        return SerializerKind.JAVA;
    }

    @Override
    public byte[] encode(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException | RuntimeException e) {
            throw new CodecException("Java serialization failed: " + e, e);
        }
        return bytes.toByteArray();
    }

    @Override
    public Object decode(byte[] bytes) {
        Unfolding unfolding = new Unfolding(limits.unfoldingBudget(bytes.length));
        try (WebappObjectInputStream in = new WebappObjectInputStream(bytes, rules, limits, unfolding, true)) {
            return in.readAttributeValue();
        } catch (Throwable e) {
            // Anything, Errors included (a value's own readObject, a refused class or claim): this value only.
            throw CodecException.readFailure("Java", e);
        }
    }
}
