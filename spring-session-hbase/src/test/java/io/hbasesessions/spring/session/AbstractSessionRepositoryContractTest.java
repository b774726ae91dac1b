package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.MutableClock;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.TestStores;
import io.hbasesessions.store.WarClassLoaderFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.events.SessionDeletedEvent;

/**
 * Spring Session's repository contract on the real store, with two repositories on one HBase standing for two nodes:
 * create, save, find and delete; id changes; idle expiry; the principal index across nodes; concurrent saves that
 * lose nothing; hostile ids; attributes whose class is gone. Each subclass runs it under one configuration
 * ({@link #configure}).
 */
@ExtendWith(HBaseExtension.class)
abstract class AbstractSessionRepositoryContractTest {

    static final ClassLoader LOADER = AbstractSessionRepositoryContractTest.class.getClassLoader();

    private final MutableClock clock = new MutableClock(java.time.Instant.now());
    private final List<Object> events = new CopyOnWriteArrayList<>();
    private final List<HBaseIndexedSessionRepository> opened = new ArrayList<>();
    StoreSettings settings;
    HBaseIndexedSessionRepository nodeA;
    HBaseIndexedSessionRepository nodeB;

    /** The configuration under test, applied to every repository of the suite. */
    abstract void configure(HBaseIndexedSessionRepository repository);

    @BeforeEach
    void openTwoNodes(EmbeddedHBase server, TestNamespace namespace) {
        settings = TestStores.settings(server, namespace).build();
        nodeA = open(settings, LOADER);
        nodeB = open(settings, LOADER);
    }

    @AfterEach
    void closeNodes() {
        opened.forEach(HBaseIndexedSessionRepository::close);
    }

    HBaseIndexedSessionRepository open(StoreSettings with, ClassLoader loader) {
        HBaseIndexedSessionRepository repository = new HBaseIndexedSessionRepository(with, loader,
                SessionSystem.SPRING_SESSION, clock);
        configure(repository);
        repository.setApplicationEventPublisher(events::add);
        opened.add(repository);
        return repository;
    }

    private HBaseSession saved(HBaseIndexedSessionRepository node, Map<String, ?> attributes) {
        HBaseSession session = node.createSession();
        attributes.forEach(session::setAttribute);
        node.save(session);
        return session;
    }

    private static SecurityContextImpl loginOf(String user) {
        return new SecurityContextImpl(UsernamePasswordAuthenticationToken.authenticated(user, null, List.of()));
    }

    @Test
    void aSessionSavedOnOneNodeIsFoundOnTheOtherWithItsAttributesAndTimesAndDeletedEverywhere() {
        HBaseSession created = nodeA.createSession();
        created.setAttribute("cart", new ArrayList<>(List.of("book")));
        created.setMaxInactiveInterval(Duration.ofMinutes(5));
        nodeA.save(created);

        HBaseSession found = nodeB.findById(created.getId());
        assertNotNull(found, "the other node does not find the session");
        assertEquals(List.of("book"), found.getAttribute("cart"));
        assertEquals(Set.of("cart"), found.getAttributeNames());
        assertEquals(created.getCreationTime().toEpochMilli(), found.getCreationTime().toEpochMilli());
        assertEquals(Duration.ofMinutes(5), found.getMaxInactiveInterval());
        assertFalse(found.isExpired());

        found.setAttribute("cart", null);
        found.setAttribute("step", "checkout");
        nodeB.save(found);
        HBaseSession again = nodeA.findById(created.getId());
        assertEquals(Set.of("step"), again.getAttributeNames(), "setting null removes, as Spring Session's do");

        nodeA.deleteById(created.getId());
        assertNull(nodeB.findById(created.getId()));
        assertNull(nodeA.findById(created.getId()));
        SessionDeletedEvent deleted = (SessionDeletedEvent) events.get(events.size() - 1);
        assertEquals(created.getId(), deleted.getSessionId());
        assertEquals("checkout", deleted.<HBaseSession>getSession().getAttribute("step"));
        int published = events.size();
        nodeB.deleteById(created.getId());
        assertEquals(published, events.size(), "a session deleted already publishes nothing again");
    }

    @Test
    void aChangedIdFindsTheSessionAndTheOldIdNothing() {
        HBaseSession session = saved(nodeA, Map.of("cart", "pen", SpringNames.SECURITY_CONTEXT, loginOf("dora")));
        String oldId = session.getId();
        String newId = session.changeSessionId();
        assertNotEquals(oldId, newId);
        assertEquals(newId, session.getId());
        nodeA.save(session);

        assertNull(nodeB.findById(oldId));
        assertEquals("pen", nodeB.findById(newId).getAttribute("cart"));
        assertEquals(Set.of(newId), nodeB.findByPrincipalName("dora").keySet());

        HBaseSession unsaved = nodeA.createSession();
        String before = unsaved.getId();
        String after = unsaved.changeSessionId();
        nodeA.save(unsaved);
        assertNull(nodeB.findById(before));
        assertNotNull(nodeB.findById(after), "a new session is stored under its changed id");
    }

    @Test
    void aSessionIdleLongerThanItsMaxInactiveIntervalIsExpiredAndFoundNowhere() {
        HBaseSession session = nodeA.createSession();
        session.setMaxInactiveInterval(Duration.ofSeconds(10));
        session.setAttribute("cart", "pen");
        nodeA.save(session);

        clock.advance(Duration.ofSeconds(9));
        HBaseSession used = nodeB.findById(session.getId());
        assertNotNull(used);
        used.setLastAccessedTime(clock.instant());
        nodeB.save(used);

        clock.advance(Duration.ofSeconds(9));
        assertNotNull(nodeA.findById(session.getId()), "the access on the other node kept it alive");
        clock.advance(Duration.ofSeconds(2));
        assertTrue(used.isExpired());
        assertNull(nodeA.findById(session.getId()));
        assertNull(nodeB.findById(session.getId()));
    }

    @Test
    void aZeroMaxInactiveIntervalNeverIdlesOut() {
        HBaseSession session = nodeA.createSession();
        session.setMaxInactiveInterval(Duration.ZERO);
        nodeA.save(session);
        clock.advance(Duration.ofDays(1));
        assertFalse(session.isExpired());
        assertNotNull(nodeB.findById(session.getId()));
    }

    @Test
    void findByPrincipalNameFindsTheSessionsOfBothNodesAndNobodyElses() {
        String user = "alice-" + TestStores.newId();
        HBaseSession onA = saved(nodeA, Map.of(SpringNames.SECURITY_CONTEXT, loginOf(user)));
        HBaseSession onB = saved(nodeB, Map.of(SpringNames.SECURITY_CONTEXT, loginOf(user), "cart", "pen"));
        HBaseSession explicit = saved(nodeB, Map.of(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, user));
        saved(nodeA, Map.of(SpringNames.SECURITY_CONTEXT, loginOf("someone-else-" + TestStores.newId())));
        saved(nodeA, Map.of("cart", "book"));

        Set<String> expected = Set.of(onA.getId(), onB.getId(), explicit.getId());
        for (HBaseIndexedSessionRepository node : List.of(nodeA, nodeB)) {
            Map<String, HBaseSession> found = node.findByPrincipalName(user);
            assertEquals(expected, found.keySet());
            assertEquals("pen", found.get(onB.getId()).getAttribute("cart"));
            assertEquals(expected, node.findByIndexNameAndIndexValue(
                    FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, user).keySet());
            assertEquals(Map.of(), node.findByIndexNameAndIndexValue("another index", user));
        }

        HBaseSession loggedOut = nodeA.findById(onB.getId());
        loggedOut.removeAttribute(SpringNames.SECURITY_CONTEXT);
        nodeA.save(loggedOut);
        nodeB.deleteById(onA.getId());
        assertEquals(Set.of(explicit.getId()), nodeA.findByPrincipalName(user).keySet());
    }

    @Test
    void revokeAllEndsTheUsersSessionsOfBothNodesAndPublishesADeletedEventForEach() {
        String user = "carol-" + TestStores.newId();
        HBaseSession onA = saved(nodeA, Map.of(SpringNames.SECURITY_CONTEXT, loginOf(user), "cart", "pen"));
        HBaseSession onB = saved(nodeB, Map.of(SpringNames.SECURITY_CONTEXT, loginOf(user)));
        HBaseSession someoneElses = saved(nodeA, Map.of(SpringNames.SECURITY_CONTEXT,
                loginOf("someone-else-" + TestStores.newId())));
        int published = events.size();

        assertEquals(2, nodeB.revokeAll(user));
        for (HBaseIndexedSessionRepository node : List.of(nodeA, nodeB)) {
            assertNull(node.findById(onA.getId()));
            assertNull(node.findById(onB.getId()));
            assertNotNull(node.findById(someoneElses.getId()));
        }
        List<SessionDeletedEvent> deleted = events.subList(published, events.size()).stream()
                .map(SessionDeletedEvent.class::cast).toList();
        assertEquals(Set.of(onA.getId(), onB.getId()),
                deleted.stream().map(SessionDeletedEvent::getSessionId).collect(Collectors.toSet()));
        assertEquals("pen", deleted.stream().filter(event -> event.getSessionId().equals(onA.getId())).findFirst()
                .orElseThrow().<HBaseSession>getSession().getAttribute("cart"), "the event carries the attributes");
        assertEquals(0, nodeA.revokeAll(user));
        assertEquals(published + 2, events.size(), "a revocation that ends nothing publishes nothing");
    }

    @Test
    void concurrentSavesOfOneSessionFromTwoNodesLoseNoAttribute() throws Exception {
        String id = saved(nodeA, Map.of("start", 0)).getId();
        int threadsPerNode = 4;
        int attributesPerThread = 10;
        ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerNode);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> writers = new ArrayList<>();
        try {
            for (int t = 0; t < 2 * threadsPerNode; t++) {
                HBaseIndexedSessionRepository node = t % 2 == 0 ? nodeA : nodeB;
                String writer = "w" + t;
                writers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < attributesPerThread; i++) {
                        HBaseSession session = node.findById(id);
                        session.setAttribute(writer + "-" + i, i);
                        node.save(session);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> names = nodeB.findById(id).getAttributeNames();
        assertEquals(1 + 2 * threadsPerNode * attributesPerThread, names.size(), () -> "lost: " + missing(names,
                threadsPerNode, attributesPerThread));
    }

    private static Set<String> missing(Set<String> names, int threadsPerNode, int attributesPerThread) {
        Set<String> missing = new TreeSet<>();
        for (int t = 0; t < 2 * threadsPerNode; t++) {
            for (int i = 0; i < attributesPerThread; i++) {
                if (!names.contains("w" + t + "-" + i)) {
                    missing.add("w" + t + "-" + i);
                }
            }
        }
        return missing;
    }

    @Test
    void hostileForgedAndOverlongIdsFindNothingAndThrowNothing() {
        HBaseSession real = saved(nodeA, Map.of("cart", "pen"));
        List<String> hostile = new ArrayList<>(List.of("", " ", "../../etc/passwd", "' OR 1=1 --", "\u0000\u0001",
                "\uD800", "x".repeat(100_000), real.getId() + ".node1", real.getId().toUpperCase(),
                real.getId() + " ", "%00" + real.getId()));
        hostile.add(null);
        for (String id : hostile) {
            assertDoesNotThrow(() -> assertNull(nodeB.findById(id)));
            assertDoesNotThrow(() -> nodeB.deleteById(id));
            assertDoesNotThrow(() -> assertEquals(Map.of(), nodeB.findByPrincipalName(id)));
        }
        assertEquals("pen", nodeB.findById(real.getId()).getAttribute("cart"), "a hostile id touched a real session");
    }

    @Test
    void anAttributeWhoseClassIsMissingIsLeftOutAndKept(@TempDir Path work) throws Exception {
        try (WarClassLoaderFixture.WarLoader war = WarClassLoaderFixture.warLoader(work)) {
            HBaseIndexedSessionRepository withTheClass = open(settings, war);
            HBaseSession session = saved(withTheClass, Map.of("item", WarClassLoaderFixture.newCartItem(war, "book", 2),
                    "user", "alice"));

            HBaseSession without = nodeB.findById(session.getId());
            assertEquals(Set.of("user"), without.getAttributeNames());
            assertNull(without.getAttribute("item"));
            without.setAttribute("step", "checkout");
            nodeB.save(without);

            HBaseSession back = withTheClass.findById(session.getId());
            assertEquals("book x2", back.getAttribute("item").toString(), "the unreadable attribute was not kept");
            assertEquals(Set.of("item", "user", "step"), back.getAttributeNames());
        }
    }

    /** Spring's names, spelt once. */
    static final class SpringNames {
        static final String SECURITY_CONTEXT = HBaseIndexedSessionRepository.SPRING_SECURITY_CONTEXT;

        private SpringNames() {
        }
    }
}
