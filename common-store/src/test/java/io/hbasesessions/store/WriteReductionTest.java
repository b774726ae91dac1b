package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A request writes only what it changed: nothing for a read, one debounced touch, in-place changes found. */
@ExtendWith(HBaseExtension.class)
class WriteReductionTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);
    private static final MutationRecorder RECORDER = new MutationRecorder();
    private static SessionStore store;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace) {
        store = TestStores.open(TestStores.settings(server, namespace).build(), CLOCK, RECORDER);
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @BeforeEach
    void forgetEarlierWrites() {
        RECORDER.drain();
    }

    private StoredSession createAndLoad(Duration maxInactive, Map<String, ?> attributes) {
        String id = TestStores.create(store, CLOCK.instant(), maxInactive, attributes).record().id();
        StoredSession loaded = store.load(id).orElseThrow();
        RECORDER.drain();
        return loaded;
    }

    /** Issue #10 item 4: a read-only request writes nothing, whatever it read, counted by the store. */
    @Test
    void aReadOnlyRequestWritesNothing() {
        StoredSession loaded = createAndLoad(Duration.ofMinutes(30), Map.of("cart", new ArrayList<>(List.of("book")),
                "prefs", new HashMap<>(Map.of("theme", 1)), "user", "ada"));
        StoreCounters before = store.counters();
        loaded.attributes().get("cart");
        loaded.attributes().get("prefs");
        loaded.attributes().keySet();

        assertEquals(SaveResult.UNCHANGED, store.save(loaded, loaded.record()));
        loaded.attributes().put("cart", new ArrayList<>(List.of("book")));
        assertEquals(SaveResult.UNCHANGED, store.save(loaded, loaded.record()), "an equal value set again");
        assertEquals(List.of(), RECORDER.all());
        StoreCounters after = store.counters();
        assertEquals(before.sessionWrites(), after.sessionWrites());
        assertEquals(2, after.get(StoreCounter.UNCHANGED_SAVES) - before.get(StoreCounter.UNCHANGED_SAVES));
    }

    @Test
    void repeatedTouchesWithinTheIntervalWriteAtMostOnce() {
        StoredSession session = createAndLoad(Duration.ofMinutes(30), Map.of("cart", "book"));
        StoreCounters before = store.counters();

        // Eleven requests 10 s apart: the 6th (60 s after the stored access) is due, the others fall within an interval.
        List<SaveResult> results = new ArrayList<>();
        for (int request = 1; request <= 11; request++) {
            CLOCK.advance(Duration.ofSeconds(10));
            results.add(store.save(session, session.record().withLastAccessTime(CLOCK.instant())));
        }

        assertEquals(1, results.stream().filter(result -> result == SaveResult.TOUCHED).count(), results.toString());
        assertEquals(SaveResult.TOUCHED, results.get(5));
        assertEquals(1, RECORDER.all().size());
        StoreCounters after = store.counters();
        assertEquals(1, after.get(StoreCounter.TOUCHES) - before.get(StoreCounter.TOUCHES));
        assertEquals(10, after.get(StoreCounter.TOUCHES_SKIPPED) - before.get(StoreCounter.TOUCHES_SKIPPED));
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAttributeChangedInPlaceIsFoundAndWritten() {
        StoredSession loaded = createAndLoad(Duration.ofMinutes(30), Map.of("cart", new ArrayList<>(List.of("book"))));
        ((List<String>) loaded.attributes().get("cart")).add("pen");

        assertEquals(SaveResult.WRITTEN, store.save(loaded, loaded.record()));
        assertEquals(1, RECORDER.all().size());
        assertEquals(List.of("book", "pen"), store.load(loaded.record().id()).orElseThrow().attributes().get("cart"));
    }

    @Test
    void aShortIdleTimeoutShortensTheTouchInterval() {
        // A tenth of 20 s: an access is written within 2 s, so the session is never seen idle more than 10% early.
        StoredSession session = createAndLoad(Duration.ofSeconds(20), Map.of());
        CLOCK.advance(Duration.ofMillis(1_999));
        assertEquals(SaveResult.UNCHANGED, store.save(session, session.record().withLastAccessTime(CLOCK.instant())));
        CLOCK.advance(Duration.ofMillis(1));
        assertEquals(SaveResult.TOUCHED, store.save(session, session.record().withLastAccessTime(CLOCK.instant())));
        assertEquals(1, RECORDER.all().size());
    }
}
