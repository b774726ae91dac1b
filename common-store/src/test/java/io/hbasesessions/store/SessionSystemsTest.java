package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #28 item 2: a session one session system wrote never turns into another's. Shiro's native sessions
 * and the containers' sessions of one key scope (a Shiro application on a Jetty node with the server-wide
 * module, both under {@code JSESSIONID}) stay apart: neither reads, ends nor overwrites the other's rows.
 * Tomcat and Jetty sessions of one scope stay one session.
 */
@ExtendWith(HBaseExtension.class)
class SessionSystemsTest {

    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);
    private static final ClassLoader LOADER = SessionSystemsTest.class.getClassLoader();

    private static SessionStore shiro;
    private static SessionStore tomcat;
    private static SessionStore jetty;
    private static SessionStore springSession;
    private static SessionStore springSessionShared;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace) {
        StoreSettings settings = TestStores.settings(server, namespace).build();
        shiro = SessionStores.open(settings, new Webapp(LOADER, Container.SHIRO));
        tomcat = SessionStores.open(settings, new Webapp(LOADER, Container.TOMCAT));
        jetty = SessionStores.open(settings, new Webapp(LOADER, Container.JETTY));
        springSession = SessionStores.open(settings, new Webapp(LOADER, Container.SPRING_SESSION));
        springSessionShared = SessionStores.open(settings, new Webapp(LOADER, Container.SPRING_SESSION_WITH_CONTAINERS));
    }

    @AfterAll
    static void close() {
        List.of(shiro, tomcat, jetty, springSession, springSessionShared).forEach(SessionStore::close);
    }

    @Test
    void aShiroSessionIsNoSessionToTheContainersWhichNeitherEndNorOverwriteIt() {
        StoredSession shiros = TestStores.create(shiro, Instant.now(), HALF_AN_HOUR, Map.of("user", "lonestarr"));
        String id = shiros.record().id();

        for (SessionStore container : List.of(tomcat, jetty)) {
            assertTrue(container.load(id).isEmpty(), "a container reads Shiro's session as its own");
            assertEquals(Set.of(), container.liveAmong(List.of(id)));
            assertFalse(container.delete(id), "a container deletes Shiro's session");
            StoredSession taking = container.newSession(SessionRecord.created(id, Instant.now(), HALF_AN_HOUR), false);
            taking.attributes().put("user", "nobody");
            assertThrows(SessionAlreadyExistsException.class, () -> container.save(taking, taking.record()));
            assertThrows(SessionAlreadyExistsException.class,
                    () -> container.saveWhole(taking.record(), Map.of("user", "nobody"), false));
        }

        StoredSession after = shiro.load(id).orElseThrow(() -> new AssertionError("Shiro's session is gone"));
        assertEquals(shiros.version(), after.version(), "Shiro's session was written by a container");
        assertEquals("lonestarr", after.attributes().get("user"));
    }

    @Test
    void aContainerSessionIsNoSessionToShiro() {
        String id = TestStores.create(jetty, Instant.now(), HALF_AN_HOUR, Map.of("cart", "book")).record().id();
        assertTrue(shiro.load(id).isEmpty());
        assertFalse(shiro.delete(id));
        assertTrue(jetty.load(id).isPresent());
    }

    @Test
    void tomcatAndJettySessionsOfOneKeyScopeAreOneSession() {
        String id = TestStores.create(tomcat, Instant.now(), HALF_AN_HOUR, Map.of("cart", "book")).record().id();
        StoredSession onJetty = jetty.load(id).orElseThrow(() -> new AssertionError("Jetty does not see Tomcat's session"));
        onJetty.attributes().put("step", "checkout");
        assertEquals(SaveResult.WRITTEN, jetty.save(onJetty, onJetty.record()));
        assertEquals("checkout", tomcat.load(id).orElseThrow().attributes().get("step"));
        assertTrue(jetty.delete(id));
    }

    /** Issue #32: Spring Session's own rows and a server-wide container store of the same application stay apart. */
    @Test
    void springSessionsOwnSessionsAndTheContainersNeverTakeOverEachOthersRows() {
        String springs = TestStores.create(springSession, Instant.now(), HALF_AN_HOUR, Map.of("cart", "pen")).record().id();
        for (SessionStore other : List.of(tomcat, jetty, shiro, springSessionShared)) {
            assertTrue(other.load(springs).isEmpty(), "another system reads Spring Session's row");
            assertFalse(other.delete(springs));
        }
        String tomcats = TestStores.create(tomcat, Instant.now(), HALF_AN_HOUR, Map.of("cart", "book")).record().id();
        assertTrue(springSession.load(tomcats).isEmpty(), "Spring Session reads a container's row");
        assertFalse(springSession.delete(tomcats));
        StoredSession taking = springSession.newSession(SessionRecord.created(tomcats, Instant.now(), HALF_AN_HOUR), false);
        assertThrows(SessionAlreadyExistsException.class, () -> springSession.save(taking, taking.record()));
        assertEquals("pen", springSession.load(springs).orElseThrow().attributes().get("cart"));
        assertEquals("book", tomcat.load(tomcats).orElseThrow().attributes().get("cart"));
    }

    /** Issue #32: shared on purpose, a Spring Session application and a container one of one key scope share sessions. */
    @Test
    void springSessionSharedWithTheContainersReadsAndWritesTheirSessionsAndTheyItsOwn() {
        String tomcats = TestStores.create(tomcat, Instant.now(), HALF_AN_HOUR, Map.of("cart", "book")).record().id();
        StoredSession read = springSessionShared.load(tomcats).orElseThrow(() -> new AssertionError("not shared"));
        read.attributes().put("step", "checkout");
        assertEquals(SaveResult.WRITTEN, springSessionShared.save(read, read.record()));
        assertEquals("checkout", jetty.load(tomcats).orElseThrow().attributes().get("step"));

        String springs = TestStores.create(springSessionShared, Instant.now(), HALF_AN_HOUR, Map.of("cart", "pen"))
                .record().id();
        assertEquals("pen", tomcat.load(springs).orElseThrow().attributes().get("cart"));
        assertTrue(springSession.load(springs).isEmpty(), "Spring Session's own system reads the shared row");
    }
}
