package io.hbasesessions.testapp.hard;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * An attribute that cannot be read on a node that {@linkplain #arm armed} it: its {@code readObject}
 * throws an {@link Error}, as a class gone or changed after a redeploy would. Only this attribute may
 * be lost on that node; the session and its other attributes must be served, and its bytes kept.
 */
public final class Bomb implements Serializable {
    private static final long serialVersionUID = 1L;
    private static volatile boolean armed;

    private final String label;

    public Bomb(String label) {
        this.label = label;
    }

    /** In this node's JVM only. */
    public static void arm(boolean on) {
        armed = on;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (armed) {
            throw new InstantiationError("armed: this attribute cannot be read here");
        }
    }

    @Override
    public String toString() {
        return "Bomb(" + label + ")";
    }
}
