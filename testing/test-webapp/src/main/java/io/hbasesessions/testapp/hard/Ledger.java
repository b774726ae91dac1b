package io.hbasesessions.testapp.hard;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A class with its own {@code writeObject}/{@code readObject}: it writes a check value after its fields
 * and rebuilds its transient index when read, and two of its fields are one list. A serializer that
 * copies fields instead of running the hooks leaves the index null and {@link #readObjectRuns} at 0.
 */
public final class Ledger implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final int CHECK = 0x5e55;

    private final List<String> entries = new ArrayList<>();
    /** The same list as {@link #entries}, under another name. */
    private final List<String> alias = entries;
    private transient Map<String, Integer> positions = new HashMap<>();
    private transient int readObjectRuns;

    public void record(String entry) {
        entries.add(entry);
        positions.put(entry, entries.size() - 1);
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        out.writeInt(CHECK);
        out.writeInt(entries.size());
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (in.readInt() != CHECK || in.readInt() != entries.size()) {
            throw new InvalidObjectException("the ledger's check values do not match");
        }
        positions = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            positions.put(entries.get(i), i);
        }
        readObjectRuns++;
    }

    /**
     * Empty when the hooks ran (once: every request reads its session afresh) and the shared list is
     * still one list.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (alias != entries) {
            problems.add("alias and entries are two lists");
        }
        if (readObjectRuns != 1) {
            problems.add("readObject ran " + readObjectRuns + " times");
        }
        if (positions == null) {
            problems.add("the transient index was not rebuilt");
        } else {
            for (int i = 0; i < entries.size(); i++) {
                if (!Integer.valueOf(i).equals(positions.get(entries.get(i)))) {
                    problems.add("the index does not match entry " + i);
                }
            }
        }
        return problems;
    }

    public List<String> entries() {
        return List.copyOf(entries);
    }

    @Override
    public String toString() {
        return "Ledger" + entries;
    }
}
