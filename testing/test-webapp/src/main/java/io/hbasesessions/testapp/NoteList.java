package io.hbasesessions.testapp;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** A mutable attribute the servlet changes in place, without calling setAttribute again. */
public final class NoteList implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<Note> notes = new ArrayList<>();

    public void add(Note note) {
        notes.add(note);
    }

    @Override
    public String toString() {
        return notes.toString();
    }
}
