package io.hbasesessions.store.codec;

import com.esotericsoftware.kryo.io.Input;

/**
 * A Kryo input over one stored value that refuses any length or count claiming more than the bytes
 * left, before anything is allocated for it: every element takes at least one byte, so a claim beyond
 * the rest of the value can only come from damaged or hostile bytes. The element counts of collections,
 * maps and arrays are also added up against the value's budget ({@link ReadLimits#elementBudget}):
 * each one alone could claim the rest of the value and allocate for it again.
 */
final class BoundedInput extends Input {

    private final long elementBudget;
    private long elementsClaimed;

    BoundedInput(byte[] bytes, ReadLimits limits) {
        super(bytes);
        this.elementBudget = limits.elementBudget(bytes.length);
    }

    /**
     * A collection, map or array about to be sized for {@code count} elements.
     *
     * @throws DecodingRefusedException if the value's elements together would exceed its budget
     */
    static void claimElements(Input input, int count) {
        BoundedInput bounded = (BoundedInput) input;
        bounded.elementsClaimed += count;
        if (count < 0 || bounded.elementsClaimed > bounded.elementBudget) {
            throw new DecodingRefusedException("collections claiming " + bounded.elementsClaimed + " elements in "
                    + bounded.limit() + " bytes (at most " + bounded.elementBudget + "): damaged or hostile bytes");
        }
    }

    /** Reads a count of elements that each take at least one more byte of {@code input}. */
    static int count(Input input) {
        int count = input.readVarInt(true);
        return check(input, count, 1);
    }

    @Override
    public byte[] readBytes(int length) {
        return super.readBytes(check(this, length, Byte.BYTES));
    }

    @Override
    public int[] readInts(int length) {
        return super.readInts(check(this, length, Integer.BYTES));
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
        return super.readInts(check(this, length, Byte.BYTES), optimizePositive);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
        return super.readLongs(check(this, length, Byte.BYTES), optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
        return super.readLongs(check(this, length, Long.BYTES));
    }

    @Override
    public float[] readFloats(int length) {
        return super.readFloats(check(this, length, Float.BYTES));
    }

    @Override
    public double[] readDoubles(int length) {
        return super.readDoubles(check(this, length, Double.BYTES));
    }

    @Override
    public short[] readShorts(int length) {
        return super.readShorts(check(this, length, Short.BYTES));
    }

    @Override
    public char[] readChars(int length) {
        return super.readChars(check(this, length, Character.BYTES));
    }

    @Override
    public boolean[] readBooleans(int length) {
        return super.readBooleans(check(this, length, 1));
    }

    @Override
    public String readString() {
        checkUtf8CharCount();
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        checkUtf8CharCount();
        return super.readStringBuilder();
    }

    /** A UTF-8 string starts with its length, for which Kryo allocates; an ASCII one has none. */
    private void checkUtf8CharCount() {
        if (readVarIntFlag()) {
            int start = position;
            int charCount = readVarIntFlag(true);
            position = start;
            if (charCount > 1) {
                check(this, charCount - 1, 1);
            }
        }
    }

    private static int check(Input input, int count, int minimumBytesEach) {
        long left = (long) input.limit() - input.position();
        if (count < 0 || (long) count * minimumBytesEach > left) {
            throw new DecodingRefusedException("a count of " + count + " with " + left + " bytes left: damaged or hostile "
                    + "bytes");
        }
        return count;
    }
}
