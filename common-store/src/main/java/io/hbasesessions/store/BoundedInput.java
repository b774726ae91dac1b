package io.hbasesessions.store;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;

/**
 * A Kryo input over one stored value that refuses any length or count claiming more than the bytes
 * left, before anything is allocated for it: every element takes at least one byte, so a claim beyond
 * the rest of the value can only come from damaged or hostile bytes.
 */
final class BoundedInput extends Input {

    BoundedInput(byte[] bytes) {
        super(bytes);
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
        if (readVarIntFlag()) {
            int start = position;
            int charCount = readVarIntFlag(true);
            position = start;
            if (charCount > 1) {
                check(this, charCount - 1, 1);
            }
        }
        return super.readString();
    }

    private static int check(Input input, int count, int minimumBytesEach) {
        long left = (long) input.limit() - input.position();
        if (count < 0 || (long) count * minimumBytesEach > left) {
            throw new KryoException("a count of " + count + " with " + left + " bytes left: damaged or hostile bytes");
        }
        return count;
    }
}
