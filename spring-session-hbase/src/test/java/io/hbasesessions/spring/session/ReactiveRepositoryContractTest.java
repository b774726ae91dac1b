package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.MutableClock;
import io.hbasesessions.store.TestStores;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.session.ReactiveFindByIndexNameSessionRepository;
import org.springframework.session.events.SessionCreatedEvent;
import org.springframework.session.events.SessionDeletedEvent;
import org.springframework.session.web.server.session.SpringSessionWebSessionStore;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Session's reactive repository contract on the real store, two repositories on one HBase standing for two
 * nodes: create, save, find and delete; id changes; idle expiry; the principal index; concurrent saves of one session
 * from both nodes that lose nothing; hostile ids; and the same through Spring Session's own {@code WebSession} store,
 * as WebFlux uses it.
 */
@ExtendWith(HBaseExtension.class)
class ReactiveRepositoryContractTest {

    /** A bound on one call, so that a hang fails the test instead of stopping the build. */
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final MutableClock clock = new MutableClock(Instant.now());
    private final List<Object> events = new CopyOnWriteArrayList<>();
    private final List<ReactiveHBaseIndexedSessionRepository> opened = new ArrayList<>();
    private ReactiveHBaseIndexedSessionRepository nodeA;
    private ReactiveHBaseIndexedSessionRepository nodeB;

    @BeforeEach
    void openTwoNodes(EmbeddedHBase server, TestNamespace namespace) {
        nodeA = open(server, namespace);
        nodeB = open(server, namespace);
    }

    @AfterEach
    void closeNodes() {
        opened.forEach(ReactiveHBaseIndexedSessionRepository::close);
    }

    private ReactiveHBaseIndexedSessionRepository open(EmbeddedHBase server, TestNamespace namespace) {
        ReactiveHBaseIndexedSessionRepository repository = new ReactiveHBaseIndexedSessionRepository(
                new HBaseIndexedSessionRepository(TestStores.settings(server, namespace).build(),
                        AbstractSessionRepositoryContractTest.LOADER, SessionSystem.SPRING_SESSION, clock), null);
        repository.setApplicationEventPublisher(events::add);
        opened.add(repository);
        return repository;
    }

    private static <T> T await(Mono<T> call) {
        return call.block(WAIT);
    }

    private HBaseSession saved(ReactiveHBaseIndexedSessionRepository node, Map<String, ?> attributes) {
        return await(node.createSession().flatMap(session -> {
            attributes.forEach(session::setAttribute);
            return node.save(session).thenReturn(session);
        }));
    }

    @Test
    void aSessionIsStoredBySaveFoundOnTheOtherNodeChangedThereAndDeletedEverywhere() {
        HBaseSession created = await(nodeA.createSession());
        created.setAttribute("cart", new ArrayList<>(List.of("book")));
        assertNull(await(nodeB.findById(created.getId())), "a session is stored by its save, not before");
        await(nodeA.save(created));
        assertTrue(events.stream().anyMatch(SessionCreatedEvent.class::isInstance));

        HBaseSession found = await(nodeB.findById(created.getId()));
        assertNotNull(found, "the other node does not find the session");
        assertEquals(List.of("book"), found.getAttribute("cart"));
        assertEquals(created.getCreationTime().toEpochMilli(), found.getCreationTime().toEpochMilli());
        found.setAttribute("step", "checkout");
        await(nodeB.save(found));
        assertEquals(Set.of("cart", "step"), await(nodeA.findById(created.getId())).getAttributeNames());

        await(nodeA.deleteById(created.getId()));
        assertNull(await(nodeB.findById(created.getId())));
        SessionDeletedEvent deleted = (SessionDeletedEvent) events.get(events.size() - 1);
        assertEquals(created.getId(), deleted.getSessionId());
    }

    @Test
    void aChangedIdFindsTheSessionAndItsLoginAndTheOldIdNothing() {
        String user = "dora-" + TestStores.newId();
        HBaseSession session = saved(nodeA, Map.of("cart", "pen", HBaseIndexedSessionRepository.SPRING_SECURITY_CONTEXT,
                new SecurityContextImpl(UsernamePasswordAuthenticationToken.authenticated(user, null, List.of()))));
        String oldId = session.getId();
        String newId = session.changeSessionId();
        assertNotEquals(oldId, newId);
        await(nodeA.save(session));

        assertNull(await(nodeB.findById(oldId)));
        assertEquals("pen", await(nodeB.findById(newId)).getAttribute("cart"));
        assertEquals(Set.of(newId), await(nodeB.findByPrincipalName(user)).keySet());
        assertEquals(Map.of(), await(nodeB.findByIndexNameAndIndexValue("another index", user)));

        String named = "erin-" + TestStores.newId();
        HBaseSession explicit = saved(nodeB, Map.of(ReactiveFindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME,
                named));
        assertEquals(Set.of(explicit.getId()), await(nodeA.findByPrincipalName(named)).keySet(),
                "the reactive API's principal name attribute is not indexed");
    }

    @Test
    void aSessionIdleLongerThanItsMaxInactiveIntervalIsFoundNowhere() {
        HBaseSession session = await(nodeA.createSession());
        session.setMaxInactiveInterval(Duration.ofSeconds(10));
        await(nodeA.save(session));

        clock.advance(Duration.ofSeconds(9));
        HBaseSession used = await(nodeB.findById(session.getId()));
        used.setLastAccessedTime(clock.instant());
        await(nodeB.save(used));
        clock.advance(Duration.ofSeconds(9));
        assertNotNull(await(nodeA.findById(session.getId())), "the access on the other node kept it alive");
        clock.advance(Duration.ofSeconds(2));
        assertTrue(used.isExpired());
        assertNull(await(nodeA.findById(session.getId())));
        assertNull(await(nodeB.findById(session.getId())));
    }

    @Test
    void concurrentSavesOfOneSessionFromBothNodesLoseNoAttribute() {
        String id = saved(nodeA, Map.of("start", 0)).getId();
        int writers = 8;
        int attributesPerWriter = 10;
        Flux.range(0, writers).flatMap(writer -> {
            ReactiveHBaseIndexedSessionRepository node = writer % 2 == 0 ? nodeA : nodeB;
            return Flux.range(0, attributesPerWriter).concatMap(i -> node.findById(id).flatMap(session -> {
                session.setAttribute("w" + writer + "-" + i, i);
                return node.save(session);
            }));
        }).blockLast(Duration.ofMinutes(2));

        Set<String> names = await(nodeB.findById(id)).getAttributeNames();
        assertEquals(1 + writers * attributesPerWriter, names.size(), names.toString());
    }

    @Test
    void hostileIdsFindNothingDeleteNothingAndSignalNoError() {
        HBaseSession real = saved(nodeA, Map.of("cart", "pen"));
        List<String> hostile = new ArrayList<>(List.of("", "../../etc/passwd", "' OR 1=1 --", "\u0000\u0001", "\uD800",
                "x".repeat(100_000), real.getId() + ".node1", real.getId().toUpperCase(), "%00" + real.getId()));
        hostile.add(null);
        for (String id : hostile) {
            assertNull(await(nodeB.findById(id)));
            await(nodeB.deleteById(id));
            assertEquals(Map.of(), await(nodeB.findByPrincipalName(id)));
        }
        assertEquals("pen", await(nodeB.findById(real.getId())).getAttribute("cart"), "a hostile id touched a session");
    }

    @Test
    void springSessionsWebSessionStoreKeepsTheSessionAcrossNodesUntilItIsInvalidated() {
        SpringSessionWebSessionStore<HBaseSession> storeA = new SpringSessionWebSessionStore<>(nodeA);
        SpringSessionWebSessionStore<HBaseSession> storeB = new SpringSessionWebSessionStore<>(nodeB);
        WebSession created = await(storeA.createWebSession());
        created.getAttributes().put("cart", "pen");
        await(created.save());

        WebSession onB = await(storeB.retrieveSession(created.getId()));
        assertEquals("pen", onB.getAttribute("cart"));
        String before = onB.getId();
        await(onB.changeSessionId());
        assertNull(await(storeA.retrieveSession(before)));
        WebSession moved = await(storeA.retrieveSession(onB.getId()));
        assertEquals("pen", moved.getAttribute("cart"));

        await(moved.invalidate());
        assertNull(await(storeB.retrieveSession(onB.getId())));
        assertFalse(await(nodeB.findById(onB.getId()).hasElement()));
    }
}
