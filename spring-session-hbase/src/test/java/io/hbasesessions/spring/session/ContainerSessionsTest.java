package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionAlreadyExistsException;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.TestStores;
import io.hbasesessions.store.Webapp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Spring Session beside the Tomcat adapter on one key scope, through the store exactly as the Tomcat adapter calls it:
 * by default the two never see, end or overwrite each other's sessions (one application behind a server-wide Tomcat
 * store); shared with the containers on purpose, each reads and changes the other's sessions.
 */
@ExtendWith(HBaseExtension.class)
class ContainerSessionsTest {

    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);

    private static SessionStore tomcat;
    private static HBaseIndexedSessionRepository own;
    private static HBaseIndexedSessionRepository shared;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace) {
        StoreSettings settings = TestStores.settings(server, namespace).build();
        tomcat = SessionStores.open(settings, new Webapp(AbstractSessionRepositoryContractTest.LOADER, Container.TOMCAT));
        own = new HBaseIndexedSessionRepository(settings, AbstractSessionRepositoryContractTest.LOADER,
                SessionSystem.SPRING_SESSION);
        shared = new HBaseIndexedSessionRepository(settings, AbstractSessionRepositoryContractTest.LOADER,
                SessionSystem.SHARED_WITH_CONTAINERS);
    }

    @AfterAll
    static void close() {
        tomcat.close();
        own.close();
        shared.close();
    }

    private static HBaseSession saved(HBaseIndexedSessionRepository repository, String cart) {
        HBaseSession session = repository.createSession();
        session.setAttribute("cart", cart);
        repository.save(session);
        return session;
    }

    @Test
    void byDefaultATomcatStoreOfTheSameKeyScopeNeitherReadsNorEndsNorOverwritesSpringSessions() {
        HBaseSession springs = saved(own, "pen");
        assertTrue(tomcat.load(springs.getId()).isEmpty(), "Tomcat reads Spring Session's row as its own session");
        assertFalse(tomcat.delete(springs.getId()));
        StoredSession taking = tomcat.newSession(SessionRecord.created(springs.getId(), Instant.now(), HALF_AN_HOUR),
                false);
        assertThrows(SessionAlreadyExistsException.class, () -> tomcat.save(taking, taking.record()));

        StoredSession tomcats = TestStores.create(tomcat, Instant.now(), HALF_AN_HOUR, Map.of("cart", "book"));
        assertNull(own.findById(tomcats.record().id()), "Spring Session reads Tomcat's row as its own session");
        own.deleteById(tomcats.record().id());
        assertTrue(tomcat.load(tomcats.record().id()).isPresent(), "Spring Session ended Tomcat's session");
        assertEquals("pen", own.findById(springs.getId()).getAttribute("cart"));
    }

    @Test
    void sharedOnPurposeASpringSessionIsATomcatSessionAndTheOtherWayRound() {
        HBaseSession springs = saved(shared, "pen");
        StoredSession onTomcat = tomcat.load(springs.getId())
                .orElseThrow(() -> new AssertionError("Tomcat does not read the shared Spring Session"));
        assertEquals("pen", onTomcat.attributes().get("cart"));
        onTomcat.attributes().put("step", "checkout");
        assertEquals(SaveResult.WRITTEN, tomcat.save(onTomcat, onTomcat.record().withLastAccessTime(Instant.now())));
        assertEquals("checkout", shared.findById(springs.getId()).getAttribute("step"));

        StoredSession tomcats = TestStores.create(tomcat, Instant.now(), HALF_AN_HOUR, Map.of("cart", "book"));
        HBaseSession read = shared.findById(tomcats.record().id());
        assertEquals("book", read.getAttribute("cart"));
        assertEquals(HALF_AN_HOUR, read.getMaxInactiveInterval());
        read.setAttribute("paid", true);
        shared.save(read);
        assertEquals(true, tomcat.load(tomcats.record().id()).orElseThrow().attributes().get("paid"));

        assertNull(own.findById(springs.getId()), "Spring Session's own system reads a shared row");
    }
}
