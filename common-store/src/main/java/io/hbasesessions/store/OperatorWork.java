package io.hbasesessions.store;

import io.hbasesessions.store.codec.CodecException;
import io.hbasesessions.store.codec.SessionCodec;
import java.lang.reflect.Array;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An operator's work on the sessions of a store, for {@link StoreAdministration}: inspecting a row and sweeping
 * the user index, under the store's own rules (its codecs, class rules, expiry and user index), never copies of them.
 */
final class OperatorWork {

    private final StoreSettings settings;
    private final SaveOperation.Collaborators with;
    private final AttributePolicy values;
    private final UserSessions users;

    OperatorWork(StoreSettings settings, SaveOperation.Collaborators with, AttributePolicy values, UserSessions users) {
        this.settings = settings;
        this.with = with;
        this.values = values;
        this.users = users;
    }

    /**
     * The session in row {@code key} as it is stored, ended or not, read from the primary. Attribute values are
     * decoded only with {@code valueClasses}, under this store's class rules and bounds as values of the
     * application whose classes that loader defines, each failure only that attribute's; without it each
     * attribute shows the class its bytes name, and nothing of it is decoded. For {@link StoreAdministration#inspect}.
     */
    SessionInspection inspect(SessionKey key, Optional<ClassLoader> valueClasses) {
        Optional<SessionRow> row;
        try {
            row = with.rows().read(key, settings.operationDeadline());
        } catch (CorruptSessionDataException e) {
            return SessionInspection.unreadable(key.hex(), printable(e.getMessage()));
        }
        if (row.isEmpty()) {
            return SessionInspection.missing(key.hex());
        }
        StoredState state = row.get().state();
        SessionInspection.Metadata metadata = new SessionInspection.Metadata(row.get().version(), state.codec(),
                state.creationTime(), state.lastAccessTime(), state.maxInactiveInterval(),
                with.expiry().isOverAt(state, with.clock().instant()), with.expiry().endOf(state),
                state.login().map(SessionPrincipal::name), state.indexedUser(), state.toBytes().length);
        Optional<SessionCodec> decoding = valueClasses.map(loader -> values.codecFor(state.codec(), loader));
        SessionCodec naming = values.codec(state.codec());
        List<SessionInspection.Attribute> attributes = new ArrayList<>();
        new TreeMap<>(state.attributeBytes()).forEach((name, bytes) -> attributes.add(decoding
                .map(codec -> inspectAttribute(codec, name, bytes))
                .orElseGet(() -> new SessionInspection.Attribute(name, bytes.length, naming.className(bytes),
                        Optional.empty(), Optional.empty()))));
        return new SessionInspection(key.hex(), true, Optional.empty(), Optional.of(metadata), attributes);
    }

    private static SessionInspection.Attribute inspectAttribute(SessionCodec codec, String name, byte[] bytes) {
        Object value;
        try {
            value = codec.decode(bytes);
        } catch (CodecException e) {
            return new SessionInspection.Attribute(name, bytes.length, codec.className(bytes),
                    Optional.of(printable(e.getMessage())), Optional.empty());
        }
        String valueClass = value == null ? "null" : value.getClass().getTypeName();
        return new SessionInspection.Attribute(name, bytes.length, Optional.of(valueClass), Optional.empty(),
                Optional.of(shown(value)));
    }

    /** A value's text for an operator's terminal: its own {@code toString()} may fail or print anything. */
    private static String shown(Object value) {
        if (value != null && value.getClass().isArray()) {
            return value.getClass().getComponentType().getTypeName() + "[" + Array.getLength(value) + "]";
        }
        String text;
        try {
            text = String.valueOf(value);
        } catch (RuntimeException | StackOverflowError e) {
            text = "(toString() failed: " + e + ")";
        }
        text = printable(text);
        int max = SessionInspection.Attribute.MAX_VALUE_CHARS;
        return text.length() <= max ? text : text.substring(0, max) + "... (" + text.length() + " characters)";
    }

    /** Text read from stored bytes, for a terminal or a log: no control characters of theirs get through. */
    private static String printable(String text) {
        return text == null ? "" : text.replaceAll("\\p{Cntrl}", "?");
    }

    /**
     * Removes the user index entries, written at least {@code minEntryAgeSeconds} ago, whose session is gone:
     * no row, an unreadable one, an ended session, or one now indexed under another user. None of them can
     * be revoked or found by user any more. A younger entry may belong to a login that has written its entry
     * but not yet its session (within one operation), so the age must be at least the operation timeout.
     * The age is measured on the cells' timestamps, which the region servers' clocks give.
     */
    IndexSweep sweepIndex(long minEntryAgeSeconds, int pageRows) {
        long operationSeconds = Duration.ofMillis(settings.get(Setting.OPERATION_TIMEOUT_MILLIS)).toSeconds() + 1;
        if (minEntryAgeSeconds < operationSeconds) {
            throw new IllegalArgumentException("The minimum entry age must be at least " + operationSeconds
                    + " s (operationTimeoutMillis, rounded up): a younger entry may be a login still being written");
        }
        Instant writtenBefore = Instant.now().minusSeconds(minEntryAgeSeconds);
        long scanned = 0;
        long removed = 0;
        long unparseable = 0;
        Optional<byte[]> after = Optional.empty();
        do {
            Deadline deadline = settings.operationDeadline();
            UserIndex.Page page = with.index().page(after, pageRows, writtenBefore, deadline);
            List<UserIndex.Entry> gone = users.goneAmong(page.entries(), deadline);
            if (!gone.isEmpty()) {
                with.index().removeAll(gone, deadline);
            }
            scanned += page.entries().size();
            removed += gone.size();
            unparseable += page.unparseableRows();
            after = page.resumeAfter();
        } while (after.isPresent());
        return new IndexSweep(scanned, removed, scanned - removed, unparseable, minEntryAgeSeconds);
    }
}
