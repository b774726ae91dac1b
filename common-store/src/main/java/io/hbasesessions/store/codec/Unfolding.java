package io.hbasesessions.store.codec;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How many objects the value being decoded unfolds to, with every shared reference followed as often
 * as it occurs: the work {@code hashCode}, {@code equals} or {@code toString} of a JDK collection does
 * over it. Decoding a hash set calls {@code hashCode} on each element it adds, so nested hash sets
 * that share their elements make that work double with each level; the decoder charges every object
 * it completes (and Kryo every reference back to one) to the value's budget, which stops such a value
 * after a few levels, before the work grows.
 *
 * <p>An object is measured once, when it is complete: itself plus what each object it refers to
 * directly was measured at. So measuring costs one look at each reference. One per decoded value; not
 * thread-safe.
 */
final class Unfolding {

    private static final PerClass<Shape> SHAPES = new PerClass<>(Shape::of);

    private final long budget;
    /** Sizes of complete objects that refer to others (an object absent here unfolds to itself alone). */
    private final Map<Object, Long> sizes = new IdentityHashMap<>();
    private long charged;

    Unfolding(long budget) {
        this.budget = budget;
    }

    /** An object just decoded, whole: measured and charged. */
    void completed(Object object) {
        if (object == null) {
            return;
        }
        long[] size = {1};
        SHAPES.get(object.getClass()).forEachReference(object, child -> size[0] += sizeOf(child));
        if (size[0] > 1) {
            sizes.put(object, size[0]);
        }
        charge(size[0]);
    }

    /** A reference back to an object decoded before: charged again, at its size. */
    void referencedAgain(Object object) {
        charge(sizeOf(object));
    }

    private long sizeOf(Object object) {
        return object == null ? 0 : sizes.getOrDefault(object, 1L);
    }

    private void charge(long objects) {
        charged += objects;
        if (charged > budget) {
            throw new DecodingRefusedException("the value unfolds to more than " + budget + " objects when its "
                    + "shared references are followed (as hashing it does): a hash collision or nesting bomb");
        }
    }

    /** Where the references of a class's instances are: elements, entries, fields. */
    private record Shape(boolean array, boolean collection, boolean map, boolean entry, List<Field> fields) {

        static Shape of(Class<?> type) {
            if (type.isArray()) {
                return new Shape(!type.getComponentType().isPrimitive(), false, false, false, List.of());
            }
            // The JDK's iteration is safe to run on a just-decoded value; an application's own may do anything.
            boolean collection = Collection.class.isAssignableFrom(type) && isJdkMethod(type, "iterator");
            boolean map = Map.class.isAssignableFrom(type) && isJdkMethod(type, "entrySet");
            boolean entry = Map.Entry.class.isAssignableFrom(type) && ClassRules.isJdkClass(type);
            return new Shape(false, collection, map, entry, applicationFields(type));
        }

        void forEachReference(Object object, Consumer<Object> action) {
            if (array) {
                for (Object element : (Object[]) object) {
                    action.accept(element);
                }
            }
            if (collection) {
                ((Collection<?>) object).forEach(action);
            }
            if (map) {
                ((Map<?, ?>) object).forEach((key, value) -> {
                    action.accept(key);
                    action.accept(value);
                });
            }
            if (entry) {
                action.accept(((Map.Entry<?, ?>) object).getKey());
                action.accept(((Map.Entry<?, ?>) object).getValue());
            }
            for (Field field : fields) {
                try {
                    action.accept(field.get(object));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("an accessible field could not be read: " + field, e);
                }
            }
        }

        /** The reference fields an application class declares (the JDK's own are not accessible, nor needed). */
        private static List<Field> applicationFields(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && !ClassRules.isJdkClass(c); c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()
                            && field.trySetAccessible()) {
                        fields.add(field);
                    }
                }
            }
            return List.copyOf(fields);
        }

        private static boolean isJdkMethod(Class<?> type, String name) {
            try {
                return ClassRules.isJdkClass(type.getMethod(name).getDeclaringClass());
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    }
}
