package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The format containers keep their notes in: it round-trips, and stored bytes cannot make it allocate or misread. */
class NoteFormatTest {

    @Test
    void everyKindOfValueRoundTrips() {
        byte[] note = new NoteFormat.Writer().integer(-7).count(2).string("ünïcode").string(null).flag(true)
                .bytes(new byte[] {1, 2}).bytes(null).toBytes();
        NoteFormat.Reader in = new NoteFormat.Reader(note);
        assertEquals(-7, in.integer());
        assertEquals(2, in.count());
        assertEquals("ünïcode", in.string());
        assertNull(in.string());
        assertTrue(in.flag());
        assertArrayEquals(new byte[] {1, 2}, in.bytes());
        assertNull(in.bytes());
        in.end();
    }

    /** A length or count larger than the note is refused before anything is allocated for it. */
    @Test
    void claimsBeyondTheNoteAreRefused() {
        byte[] hugeString = ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array();
        assertThrows(IllegalArgumentException.class, () -> new NoteFormat.Reader(hugeString).string());
        assertThrows(IllegalArgumentException.class, () -> new NoteFormat.Reader(hugeString).count());
        byte[] negative = ByteBuffer.allocate(4).putInt(-2).array();
        assertThrows(IllegalArgumentException.class, () -> new NoteFormat.Reader(negative).bytes());
    }

    @Test
    void aTruncatedOrLongerNoteIsDamaged() {
        byte[] note = new NoteFormat.Writer().string("abc").toBytes();
        assertThrows(IllegalArgumentException.class, () -> new NoteFormat.Reader(Arrays.copyOf(note, 5)).string());
        assertThrows(IllegalArgumentException.class, () -> new NoteFormat.Reader(Arrays.copyOf(note, 2)).string());
        NoteFormat.Reader longer = new NoteFormat.Reader(Arrays.copyOf(note, note.length + 1));
        longer.string();
        assertThrows(IllegalArgumentException.class, longer::end);
    }
}
