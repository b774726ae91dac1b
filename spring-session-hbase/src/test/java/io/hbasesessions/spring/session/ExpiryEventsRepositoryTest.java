package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.TestStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.session.events.SessionCreatedEvent;
import org.springframework.session.events.SessionExpiredEvent;

/**
 * Spring Session's events from the store: {@code SessionCreatedEvent} when a session is first stored, and with
 * {@code expiryEvents} one {@code SessionExpiredEvent} across two nodes for each session that idles out, with its
 * attributes, after it expired; none for a session kept alive through the other node until it idles out itself.
 */
@ExtendWith(HBaseExtension.class)
class ExpiryEventsRepositoryTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final int SESSIONS = 10;
    /** Bound on waiting for the events: timeout + event delay (2 s) + a loaded machine's slack. */
    private static final Duration EVENTS_DEADLINE = Duration.ofSeconds(30);

    @Test
    void eachIdleSessionExpiresOnceAcrossTwoNodesAndAKeptAliveOneOnlyWhenItIdlesOut(EmbeddedHBase server,
            TestNamespace namespace) throws Exception {
        StoreSettings settings = TestStores.settings(server, namespace).set(Setting.EXPIRY_EVENTS, true)
                .set(Setting.EXPIRY_EVENT_DELAY_SECONDS, 2L).set(Setting.EXPIRY_TABLE, namespace.table("session_expiry"))
                .build();
        List<Object> events = new CopyOnWriteArrayList<>();
        Map<String, Long> expiredAtMillis = new ConcurrentHashMap<>();
        try (HBaseIndexedSessionRepository one = node(settings, events, expiredAtMillis);
                HBaseIndexedSessionRepository two = node(settings, events, expiredAtMillis)) {
            List<String> idle = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                HBaseIndexedSessionRepository node = i % 2 == 0 ? one : two;
                HBaseSession session = node.createSession();
                session.setMaxInactiveInterval(TIMEOUT);
                session.setAttribute("tag", "idle" + i);
                node.save(session);
                idle.add(session.getId());
            }
            HBaseSession kept = one.createSession();
            kept.setMaxInactiveInterval(TIMEOUT);
            kept.setAttribute("tag", "kept");
            one.save(kept);
            long createdMillis = System.currentTimeMillis();
            assertEquals(SESSIONS + 1, events.stream().filter(SessionCreatedEvent.class::isInstance).count());

            long keepUntil = createdMillis + 3 * TIMEOUT.toMillis();
            long lastUsedMillis = createdMillis;
            while (System.currentTimeMillis() < keepUntil) {
                HBaseSession used = two.findById(kept.getId());
                assertNotNull(used, "the kept-alive session expired while in use");
                lastUsedMillis = System.currentTimeMillis();
                used.setLastAccessedTime(java.time.Instant.ofEpochMilli(lastUsedMillis));
                two.save(used);
                Thread.sleep(300);
            }
            long deadline = lastUsedMillis + EVENTS_DEADLINE.toMillis();
            while (expiredAtMillis.size() < SESSIONS + 1 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }

            Map<String, Long> perTag = events.stream().filter(SessionExpiredEvent.class::isInstance)
                    .map(event -> (String) ((SessionExpiredEvent) event).<HBaseSession>getSession().getAttribute("tag"))
                    .collect(Collectors.groupingBy(tag -> tag, Collectors.counting()));
            for (int i = 0; i < SESSIONS; i++) {
                assertEquals(1L, perTag.get("idle" + i), "events of idle" + i + ": " + perTag);
            }
            assertEquals(1L, perTag.get("kept"), perTag.toString());
            // An access within a tenth of the timeout of the last written one is not written (touch debouncing).
            long earliest = lastUsedMillis + TIMEOUT.toMillis() - TIMEOUT.toMillis() / 10;
            assertTrue(expiredAtMillis.get("kept") >= earliest, "the kept-alive session was reported "
                    + (earliest - expiredAtMillis.get("kept")) + " ms before it idled out");
            idle.forEach(id -> assertEquals(null, one.findById(id)));
        }
    }

    private static HBaseIndexedSessionRepository node(StoreSettings settings, List<Object> events,
            Map<String, Long> expiredAtMillis) {
        HBaseIndexedSessionRepository node = new HBaseIndexedSessionRepository(settings,
                AbstractSessionRepositoryContractTest.LOADER, SessionSystem.SPRING_SESSION);
        node.setApplicationEventPublisher(event -> {
            events.add(event);
            if (event instanceof SessionExpiredEvent expired) {
                expiredAtMillis.put(expired.<HBaseSession>getSession().getAttribute("tag"), System.currentTimeMillis());
            }
        });
        return node;
    }
}
