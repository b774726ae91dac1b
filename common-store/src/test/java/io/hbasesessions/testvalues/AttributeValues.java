package io.hbasesessions.testvalues;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Attribute values of an application, for the codec and store tests: in a package of their own, since a class
 * of hbase-sessions' own packages is never a session value.
 */
public final class AttributeValues {

    private AttributeValues() {
    }

    public enum Size {
        SMALL,
        LARGE {
            @Override
            public String toString() {
                return "large";
            }
        }
    }

    public record Point(int x, int y) implements Serializable {
    }

    public static final class LruCache extends LinkedHashMap<String, Integer> {
        private static final long serialVersionUID = 1L;
        private final int maxEntries;

        public LruCache(int maxEntries) {
            super(16, 0.75f, true);
            this.maxEntries = maxEntries;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > maxEntries;
        }
    }

    public static final class SelfHoldingHandler implements InvocationHandler, Serializable {
        private static final long serialVersionUID = 1L;
        public Object self;

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            return 0;
        }
    }

    public static final class Basket implements Serializable {
        private static final long serialVersionUID = 1L;
        public final List<String> items;
        public final List<String> view;
        public final List<String> synchronizedView;
        public final Collection<String> checkedView;

        public Basket(List<String> items, List<String> view, List<String> synchronizedView, Collection<String> checkedView) {
            this.items = items;
            this.view = view;
            this.synchronizedView = synchronizedView;
            this.checkedView = checkedView;
        }
    }

    public static final class NoDefaultConstructor implements Serializable {
        private static final long serialVersionUID = 1L;
        public final String name;
        public final int count;

        public NoDefaultConstructor(String name, int count) {
            this.name = name;
            this.count = count;
        }
    }

    public static final class RebuildsTransientState implements Serializable {
        private static final long serialVersionUID = 1L;
        public final String text;
        public final List<String> tags;
        public transient int cachedLength;

        public RebuildsTransientState(String text, List<String> tags) {
            this.text = text;
            this.tags = tags;
            this.cachedLength = text.length();
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            cachedLength = text.length();
        }
    }

    public static final class Parent implements Serializable {
        private static final long serialVersionUID = 1L;
        public final String name;
        public final List<Child> children = new ArrayList<>();
        public transient int nameLength;

        public Parent(String name) {
            this.name = name;
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            nameLength = name.length();
        }
    }

    public static final class Child implements Serializable {
        private static final long serialVersionUID = 1L;
        public final Parent parent;

        public Child(Parent parent) {
            this.parent = parent;
        }
    }

    public static final class HoldsThread implements Serializable {
        private static final long serialVersionUID = 1L;
        public final Thread worker = new Thread(() -> { });
    }

    public static final class ThrowsOnRead implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final Function<Integer, Integer> RECURSE = new Function<>() {
            @Override
            public Integer apply(Integer depth) {
                return apply(depth + 1) + 1;
            }
        };

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            RECURSE.apply(0);
        }
    }

    /** A key whose hash depends on the JVM, as an enum's or an object's identity hash does. */
    public static final class JvmHashedKey implements Serializable {
        private static final long serialVersionUID = 1L;
        public static int salt = 1;
        public final int id;

        public JvmHashedKey(int id) {
            this.id = id;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof JvmHashedKey that && that.id == id;
        }

        @Override
        public int hashCode() {
            return (id * salt * 31) % 13;
        }
    }

    public record Holder(List<Object> values) implements Serializable {
    }

    /** Serializable, and nothing else: a class an attribute class filter does not name. */
    public static final class Other implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
