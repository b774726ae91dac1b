package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dirty check and the conflict merge, without HBase. */
class SessionDeltaTest {

    private static final Instant CREATED = Instant.parse("2026-11-30T08:00:00Z");
    private static final String KEY = "abcd";

    private final RecordSerializer serializer = new RecordSerializer(SessionCodec.of(SerializerKind.KRYO));
    private final ClassLoader loader = getClass().getClassLoader();

    private LoadedSession stored(SessionRecord record) {
        StoredState state = StoredState.parse(serializer.serialize(record, KEY).toBytes());
        return new LoadedSession(serializer.deserialize(record.id(), KEY, state, loader).record(), 1, state, null);
    }

    private static SessionRecord.Builder session() {
        return SessionRecord.builder("id-1", CREATED).maxInactiveInterval(Duration.ofMinutes(30));
    }

    @Test
    void unchangedSessionIsEmptyEvenWhenValuesAreSetAgain() {
        LoadedSession loaded = stored(session().attribute("cart", new ArrayList<>(List.of("book"))).build());
        SessionRecord sameValueSetAgain = loaded.record().toBuilder()
                .attribute("cart", new ArrayList<>(List.of("book"))).lastAccessTime(CREATED.plusSeconds(3)).build();
        assertTrue(SessionDelta.between(loaded, sameValueSetAgain, serializer, KEY).isEmpty());
    }

    @Test
    @SuppressWarnings("unchecked")
    void objectChangedInPlaceIsAChange() {
        LoadedSession loaded = stored(session().attribute("cart", new ArrayList<>(List.of("book"))).build());
        ((List<String>) loaded.record().attributes().get("cart")).add("pen");
        SessionDelta delta = SessionDelta.between(loaded, loaded.record(), serializer, KEY);
        assertTrue(delta.attributesChanged());
        StoredState after = delta.applyTo(loaded.storedState());
        Object cart = serializer.deserialize("id-1", KEY, after, loader).record().attributes().get("cart");
        assertEquals(List.of("book", "pen"), cart);
    }

    @Test
    void twoRequestsChangingDifferentAttributesBothSurvive() {
        LoadedSession loaded = stored(session().attribute("shared", "x").build());
        SessionRecord tabA = loaded.record().toBuilder().attribute("a", "from A").build();
        SessionRecord tabB = loaded.record().toBuilder().attribute("b", "from B").attribute("shared", null).build();

        StoredState afterA = SessionDelta.between(loaded, tabA, serializer, KEY).applyTo(loaded.storedState());
        StoredState afterBOnTopOfA = SessionDelta.between(loaded, tabB, serializer, KEY).applyTo(afterA);

        assertEquals(Set.of("a", "b"), afterBOnTopOfA.attributeBytes().keySet());
    }

    @Test
    void metadataIsMergedOnlyWhereThisRequestChangedIt() {
        LoadedSession loaded = stored(session().build());
        StoredState otherWriterLoggedIn = loaded.storedState().withMetadata(CREATED.plusSeconds(9),
                Duration.ofMinutes(30), "alice", Map.of());
        SessionRecord thisRequest = loaded.record().toBuilder().maxInactiveInterval(Duration.ofMinutes(5))
                .lastAccessTime(CREATED.plusSeconds(4)).build();

        StoredState merged = SessionDelta.between(loaded, thisRequest, serializer, KEY).applyTo(otherWriterLoggedIn);

        assertEquals(Optional.of("alice"), merged.principal());
        assertEquals(Duration.ofMinutes(5), merged.maxInactiveInterval());
        assertEquals(CREATED.plusSeconds(9), merged.lastAccessTime(), "the later access wins");
    }

    @Test
    void principalChangeIsFlagged() {
        LoadedSession loaded = stored(session().build());
        SessionDelta login = SessionDelta.between(loaded, loaded.record().withPrincipal("bob"), serializer, KEY);
        assertTrue(login.principalChanged());
        assertTrue(login.metadataChanged());
        assertFalse(login.attributesChanged());
    }

    @Test
    void attributeThatCouldNotBeReadIsCarriedThroughUntouched(@TempDir Path work) throws Exception {
        StoredState written;
        try (URLClassLoader war = WarClassLoaderFixture.cartItemLoader(work)) {
            SessionRecord withWarClass = session().attribute("item", WarClassLoaderFixture.newCartItem(war, "mug", 1))
                    .attribute("note", "kept").build();
            written = serializer.serialize(withWarClass, KEY);
        }
        DecodedSession decoded = serializer.deserialize("id-1", KEY, written, loader);
        assertEquals(List.of("item"), decoded.unreadableAttributeNames());
        assertEquals(Set.of("note"), decoded.record().attributes().keySet());

        LoadedSession loaded = new LoadedSession(decoded.record(), 1, written, null);
        SessionRecord changed = decoded.record().toBuilder().attribute("note", "changed").build();
        StoredState after = SessionDelta.between(loaded, changed, serializer, KEY).applyTo(written);
        assertEquals(Set.of("item", "note"), after.attributeBytes().keySet());
    }

    @Test
    void unserializableAttributeIsNamed() {
        LoadedSession loaded = stored(session().build());
        SessionRecord withThread = loaded.record().toBuilder().attribute("worker", new HoldsThread()).build();
        UnserializableAttributeException e = assertThrows(UnserializableAttributeException.class,
                () -> SessionDelta.between(loaded, withThread, serializer, KEY));
        assertEquals("worker", e.attributeName());
        assertTrue(e.getMessage().contains("worker"), e.getMessage());
    }

    static final class HoldsThread implements Serializable {
        private static final long serialVersionUID = 1L;
        final Thread thread = new Thread(() -> { });
    }
}
