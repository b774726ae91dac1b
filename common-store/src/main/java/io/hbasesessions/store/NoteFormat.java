package io.hbasesessions.store;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The plain format containers write their notes in ({@link SessionAttributes#putNote}): strings (null allowed),
 * counts, flags and byte arrays, big-endian. Stored bytes are untrusted, so the {@link Reader} never reads a
 * length or count larger than the bytes left: a damaged or hostile note allocates nothing for its claims and
 * fails with an {@link IllegalArgumentException}.
 */
public final class NoteFormat {

    private NoteFormat() {
    }

    /** Writes one note. */
    public static final class Writer {
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(buffer);

        public Writer string(String text) {
            return bytes(text == null ? null : text.getBytes(StandardCharsets.UTF_8));
        }

        /** A count of items that follow. */
        public Writer count(int count) {
            return integer(count);
        }

        public Writer integer(int value) {
            return write(() -> out.writeInt(value));
        }

        public Writer flag(boolean flag) {
            return write(() -> out.writeBoolean(flag));
        }

        /** A byte array, or null. */
        public Writer bytes(byte[] bytes) {
            return write(() -> {
                out.writeInt(bytes == null ? -1 : bytes.length);
                if (bytes != null) {
                    out.write(bytes);
                }
            });
        }

        public byte[] toBytes() {
            return buffer.toByteArray();
        }

        private Writer write(Step step) {
            try {
                step.run();
            } catch (IOException e) {
                throw new UncheckedIOException("Writing to memory cannot fail", e);
            }
            return this;
        }

        private interface Step {
            void run() throws IOException;
        }
    }

    /** Reads one note, within its bytes. */
    public static final class Reader {
        private final ByteBuffer in;

        public Reader(byte[] note) {
            this.in = ByteBuffer.wrap(note);
        }

        public String string() {
            byte[] utf8 = bytes();
            return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
        }

        /** A count of items that follow. @throws IllegalArgumentException for one larger than the bytes left */
        public int count() {
            return checked(integer());
        }

        public int integer() {
            return integerOf(in::getInt);
        }

        public boolean flag() {
            return integerOf(() -> (int) in.get()) != 0;
        }

        /** A byte array, or null. */
        public byte[] bytes() {
            int length = integer();
            if (length == -1) {
                return null;
            }
            byte[] bytes = new byte[checked(length)];
            in.get(bytes);
            return bytes;
        }

        /** @throws IllegalArgumentException if bytes are left: the note is not what its reader expects */
        public void end() {
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("a damaged note: " + in.remaining() + " unexpected trailing bytes");
            }
        }

        private int checked(int length) {
            if (length < 0 || length > in.remaining()) {
                throw new IllegalArgumentException("a damaged note: length " + length + " with " + in.remaining()
                        + " bytes left");
            }
            return length;
        }

        private static int integerOf(java.util.function.IntSupplier read) {
            try {
                return read.getAsInt();
            } catch (BufferUnderflowException e) {
                throw new IllegalArgumentException("a damaged note: it ends too early", e);
            }
        }
    }
}
