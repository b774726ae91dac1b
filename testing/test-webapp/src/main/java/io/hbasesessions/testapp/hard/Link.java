package io.hbasesessions.testapp.hard;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/** A node of a cycle ({@code a.next.next == a}) through a class with {@code readObject}. */
public final class Link implements Serializable {
    private static final long serialVersionUID = 1L;

    private String name;
    private Link next;
    private transient boolean revived;

    public Link(String name) {
        this.name = name;
    }

    /** Two links pointing at each other; returns the first. */
    public static Link cycle(String first, String second) {
        Link a = new Link(first);
        Link b = new Link(second);
        a.next = b;
        b.next = a;
        return a;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        revived = true;
    }

    public Link next() {
        return next;
    }

    public void rename(String newName) {
        name = newName;
    }

    public String name() {
        return name;
    }

    public boolean revived() {
        return revived;
    }

    @Override
    public String toString() {
        return "Link(" + name + " -> " + (next == null ? "null" : next.name) + ")";
    }
}
