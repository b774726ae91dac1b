package io.hbasesessions.store.codec;

import io.hbasesessions.store.Setting;

/**
 * How much the bytes of one stored value may make a decoder do, whatever they claim. A legitimate
 * encoding spends at least one byte on every element it holds, so every bound follows from the
 * value's actual size, and from {@code maxSessionBytes}, the largest session a save accepts:
 * <ul>
 *   <li>a length (of a byte array, string or primitive array) is at most the bytes left;</li>
 *   <li>the element counts that collections, maps and arrays claim add up to at most
 *       {@value #ELEMENTS_PER_BYTE} per byte of the value (Kryo writes a run of nulls in one byte);</li>
 *   <li>objects nest at most {@value #MAX_DEPTH} deep, well short of a request thread's stack;</li>
 *   <li>the value's graph, with every shared reference followed as {@code hashCode}, {@code equals}
 *       and {@code toString} follow it, adds up to at most {@value #UNFOLDED_OBJECTS_PER_BYTE} objects
 *       per byte and never more than {@value #MAX_UNFOLDED_OBJECTS}: so nested hash sets that share
 *       their elements (each level doubling the work of hashing the level above) are cut off after a
 *       few levels, instead of taking seconds per extra level.</li>
 * </ul>
 */
public record ReadLimits(long maxSessionBytes) {

    static final int ELEMENTS_PER_BYTE = 2;
    public static final int MAX_DEPTH = 256;
    static final int UNFOLDED_OBJECTS_PER_BYTE = 64;
    static final long MAX_UNFOLDED_OBJECTS = 1L << 23;

    /** The limits of a store whose {@code maxSessionBytes} is the default. */
    static final ReadLimits DEFAULT = new ReadLimits(Setting.MAX_SESSION_BYTES.defaultValue().orElseThrow());

    /** The elements all collections, maps and arrays of a value of {@code valueBytes} may claim together. */
    long elementBudget(int valueBytes) {
        return ELEMENTS_PER_BYTE * boundedSize(valueBytes);
    }

    /** The objects a value of {@code valueBytes} may unfold to (see {@link Unfolding}). */
    long unfoldingBudget(int valueBytes) {
        return Math.min(MAX_UNFOLDED_OBJECTS, UNFOLDED_OBJECTS_PER_BYTE * boundedSize(valueBytes));
    }

    /** A value larger than a whole session may be is measured as if it were that large. */
    private long boundedSize(int valueBytes) {
        return Math.min(valueBytes, maxSessionBytes);
    }
}
