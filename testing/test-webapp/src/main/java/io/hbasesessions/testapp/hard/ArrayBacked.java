package io.hbasesessions.testapp.hard;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/** An array and {@code Arrays.asList} of it: a write through the list must still reach the array. */
public final class ArrayBacked implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String[] array;
    private final List<String> view;

    public ArrayBacked(String... values) {
        array = values.clone();
        view = Arrays.asList(array);
    }

    public void set(int index, String value) {
        view.set(index, value);
    }

    /** Empty when the list is still a view of the array. */
    public String problem() {
        String before = array[0];
        view.set(0, "probe");
        try {
            return "probe".equals(array[0]) ? "" : "the list is no longer a view of the array";
        } finally {
            view.set(0, before);
        }
    }

    @Override
    public String toString() {
        return Arrays.toString(array);
    }
}
