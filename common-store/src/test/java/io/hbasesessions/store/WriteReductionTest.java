package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SaveResult.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #3, point 4: a request that changed nothing writes nothing, accesses are written at most once
 * per touch interval, and a change made in place is still seen. Counted twice: by the store's counters
 * and by the mutations that actually reached the HBase client.
 */
@ExtendWith(HBaseExtension.class)
class WriteReductionTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);
    private static final MutationRecorder RECORDER = new MutationRecorder();
    private static SessionStore store;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace) {
        store = TestStores.open(TestStores.settings(server, namespace).touchIntervalSeconds(60).build(), CLOCK, RECORDER);
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @BeforeEach
    void forgetEarlierWrites() {
        RECORDER.drain();
    }

    private LoadedSession createAndLoad(SessionRecord.Builder session) {
        String id = store.create(session.build()).record().id();
        LoadedSession loaded = store.load(id).orElseThrow();
        RECORDER.drain();
        return loaded;
    }

    private static SessionRecord.Builder newSession() {
        return SessionRecord.builder(TestStores.newId(), CLOCK.instant()).maxInactiveInterval(Duration.ofMinutes(30));
    }

    @Test
    void unchangedLoadAndSaveWritesNothing() {
        LoadedSession loaded = createAndLoad(newSession().attribute("cart", new ArrayList<>(List.of("book"))));
        StoreCounters before = store.counters();

        SaveResult asLoaded = store.save(loaded, loaded.record());
        SaveResult equalValueSetAgain = store.save(loaded,
                loaded.record().toBuilder().attribute("cart", new ArrayList<>(List.of("book"))).build());

        assertEquals(Outcome.UNCHANGED, asLoaded.outcome());
        assertEquals(Outcome.UNCHANGED, equalValueSetAgain.outcome());
        assertEquals(List.of(), RECORDER.all());
        StoreCounters after = store.counters();
        assertEquals(before.sessionWrites(), after.sessionWrites());
        assertEquals(2, after.unchangedSaves() - before.unchangedSaves());
    }

    @Test
    void repeatedTouchesWithinTheIntervalWriteAtMostOnce() {
        LoadedSession session = createAndLoad(newSession().attribute("cart", "book"));
        StoreCounters before = store.counters();

        // Eleven requests 10 s apart: the 6th (60 s after the stored access) is due, the others fall within an interval.
        List<Outcome> outcomes = new ArrayList<>();
        for (int request = 1; request <= 11; request++) {
            CLOCK.advance(Duration.ofSeconds(10));
            SaveResult result = store.touch(session, CLOCK.instant());
            outcomes.add(result.outcome());
            session = result.session().orElseThrow();
        }

        assertEquals(1, outcomes.stream().filter(outcome -> outcome == Outcome.TOUCHED).count(), outcomes.toString());
        assertEquals(Outcome.TOUCHED, outcomes.get(5));
        assertEquals(1, RECORDER.all().size());
        StoreCounters after = store.counters();
        assertEquals(1, after.touches() - before.touches());
        assertEquals(10, after.touchesSkipped() - before.touchesSkipped());
    }

    @Test
    @SuppressWarnings("unchecked")
    void attributeChangedInPlaceIsDetectedAndWritten() {
        LoadedSession loaded = createAndLoad(newSession().attribute("cart", new ArrayList<>(List.of("book"))));
        ((List<String>) loaded.record().attributes().get("cart")).add("pen");

        SaveResult result = store.save(loaded, loaded.record());

        assertEquals(Outcome.WRITTEN, result.outcome());
        assertEquals(1, RECORDER.all().size());
        assertEquals(List.of("book", "pen"), store.load(loaded.record().id()).orElseThrow().record().attributes().get("cart"));
    }

    @Test
    void shortIdleTimeoutShortensTheTouchInterval() {
        // A tenth of 20 s: an access is written within 2 s, so the session is never seen idle more than 10% early.
        LoadedSession session = createAndLoad(newSession().maxInactiveInterval(Duration.ofSeconds(20)));
        CLOCK.advance(Duration.ofMillis(1_999));
        assertEquals(Outcome.UNCHANGED, store.touch(session, CLOCK.instant()).outcome());
        CLOCK.advance(Duration.ofMillis(1));
        assertEquals(Outcome.TOUCHED, store.touch(session, CLOCK.instant()).outcome());
        assertEquals(1, RECORDER.all().size());
    }
}
