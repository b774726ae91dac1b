package io.hbasesessions.testapp;

import java.io.Serializable;

/** A session attribute whose class exists only inside this WAR. */
public final class Note implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String text;

    public Note(String text) {
        this.text = text;
    }

    @Override
    public String toString() {
        return "Note(" + text + ")";
    }
}
