package io.hbasesessions.shiro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.shiro.authc.UsernamePasswordToken;
import org.apache.shiro.ini.IniSecurityManagerFactory;
import org.apache.shiro.mgt.SecurityManager;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.UnknownSessionException;
import org.apache.shiro.session.mgt.SimpleSession;
import org.apache.shiro.subject.Subject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The DAO as Shiro uses it, configured from the module's example shiro.ini, on the shared embedded HBase. */
@ExtendWith(HBaseExtension.class)
class HBaseSessionDAOTest {

    private static IniSecurityManagerFactory shiro;
    private static SecurityManager securityManager;
    private static HBaseSessionDAO dao;

    @BeforeAll
    static void configure(EmbeddedHBase hbase, TestNamespace namespace) throws IOException {
        shiro = ShiroIni.factory(ShiroIni.example(hbase, namespace));
        securityManager = shiro.getInstance();
        dao = ShiroIni.dao(shiro);
    }

    @AfterAll
    @SuppressWarnings("deprecation")
    static void destroy() {
        shiro.destroy();
    }

    private static SimpleSession newSession(Map<String, Object> attributes) {
        SimpleSession session = new SimpleSession("10.0.0.7");
        session.setTimeout(600_000);
        attributes.forEach(session::setAttribute);
        dao.create(session);
        return session;
    }

    @Test
    void aSessionComesBackWithEveryFieldAndIsGoneOnceDeleted() {
        SimpleSession created = newSession(Map.of("cart", List.of("book", "pen")));

        Session read = dao.readSession(created.getId());
        assertEquals(created.getId(), read.getId());
        assertEquals(created.getStartTimestamp(), read.getStartTimestamp());
        assertEquals(created.getLastAccessTime(), read.getLastAccessTime());
        assertEquals(600_000, read.getTimeout());
        assertEquals("10.0.0.7", read.getHost());
        assertEquals(List.of("cart"), List.copyOf(read.getAttributeKeys()));
        assertEquals(List.of("book", "pen"), read.getAttribute("cart"));

        read.setAttribute("coupon", "WINTER");
        read.removeAttribute("cart");
        read.setTimeout(900_000);
        dao.update(read);
        Session updated = dao.readSession(created.getId());
        assertEquals("WINTER", updated.getAttribute("coupon"));
        assertNull(updated.getAttribute("cart"));
        assertEquals(900_000, updated.getTimeout());

        dao.delete(updated);
        UnknownSessionException gone = assertThrows(UnknownSessionException.class, () -> dao.readSession(created.getId()));
        assertFalse(gone.getMessage().contains(created.getId().toString()), gone.getMessage());
        updated.setAttribute("late", "write");
        assertThrows(UnknownSessionException.class, () -> dao.update(updated));
        dao.delete(updated);
    }

    @Test
    void aStoppedSessionIsReadBackStoppedUntilItIsDeleted() {
        SimpleSession created = newSession(Map.of());
        SimpleSession read = (SimpleSession) dao.readSession(created.getId());
        read.stop();
        dao.update(read);

        SimpleSession stopped = (SimpleSession) dao.readSession(created.getId());
        assertEquals(read.getStopTimestamp(), stopped.getStopTimestamp());
        assertFalse(stopped.isValid());
        assertEquals(List.of(), List.copyOf(stopped.getAttributeKeys()));
    }

    @Test
    void touchesWithinTheTouchIntervalWriteNothing() {
        SimpleSession created = newSession(Map.of("cart", "book"));
        StoreCounters before = dao.getCounters();
        for (int i = 0; i < 50; i++) {
            Session read = dao.readSession(created.getId());
            read.touch();
            read.getAttribute("cart");
            dao.update(read);
        }
        StoreCounters after = dao.getCounters();
        assertEquals(0, after.sessionWrites() - before.sessionWrites());
        assertEquals(50, after.get(StoreCounter.TOUCHES_SKIPPED) - before.get(StoreCounter.TOUCHES_SKIPPED));
    }

    @Test
    void concurrentUpdatesOfOneSessionAreMerged() throws Exception {
        Serializable id = newSession(Map.of("cart", "book")).getId();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String name = "tab" + i;
            tasks.add(() -> {
                Session read = dao.readSession(id);
                read.setAttribute(name, name);
                dao.update(read);
                return null;
            });
        }
        runTogether(tasks);

        Session merged = dao.readSession(id);
        assertEquals(9, merged.getAttributeKeys().size(), merged.getAttributeKeys().toString());
        for (int i = 0; i < 8; i++) {
            assertEquals("tab" + i, merged.getAttribute("tab" + i));
        }
    }

    @Test
    void logOutEverywhereEndsEverySessionOfThePrimaryPrincipal() {
        Serializable firstAlice = loggedIn("alice");
        Serializable secondAlice = loggedIn("alice");
        Serializable bob = loggedIn("bob");
        Session heldDuringRevocation = dao.readSession(firstAlice);

        assertEquals(2, dao.revokeAll("alice"));

        assertFalse(resumed(firstAlice).isAuthenticated());
        assertFalse(resumed(secondAlice).isAuthenticated());
        assertTrue(resumed(bob).isAuthenticated());
        assertEquals("bob", resumed(bob).getPrincipal());
        heldDuringRevocation.setAttribute("late", "write");
        assertThrows(UnknownSessionException.class, () -> dao.update(heldDuringRevocation));
        assertThrows(UnknownSessionException.class, () -> dao.readSession(firstAlice));
    }

    @Test
    void logoutDeletesTheSession() {
        Serializable id = loggedIn("bob");
        resumed(id).logout();
        assertThrows(UnknownSessionException.class, () -> dao.readSession(id));
    }

    private static Serializable loggedIn(String user) {
        Subject subject = new Subject.Builder(securityManager).buildSubject();
        subject.login(new UsernamePasswordToken(user, "secret"));
        return subject.getSession().getId();
    }

    private static Subject resumed(Serializable sessionId) {
        return new Subject.Builder(securityManager).sessionId(sessionId).buildSubject();
    }

    @Test
    void aSessionIdleLongerThanItsTimeoutIsGone() throws InterruptedException {
        SimpleSession shortLived = new SimpleSession();
        shortLived.setTimeout(1_000);
        dao.create(shortLived);
        SimpleSession expiresAtOnce = new SimpleSession();
        expiresAtOnce.setTimeout(0);
        dao.create(expiresAtOnce);
        SimpleSession neverIdlesOut = new SimpleSession();
        neverIdlesOut.setTimeout(-1);
        dao.create(neverIdlesOut);
        assertEquals(1_000, dao.readSession(shortLived.getId()).getTimeout());

        Thread.sleep(1_300);

        assertThrows(UnknownSessionException.class, () -> dao.readSession(shortLived.getId()));
        assertThrows(UnknownSessionException.class, () -> dao.readSession(expiresAtOnce.getId()));
        assertEquals(-1, dao.readSession(neverIdlesOut.getId()).getTimeout());
    }

    @Test
    void idsThatCannotNameASessionFindNothing() {
        List<Serializable> hostile = List.of("", " ", "../../etc/passwd", "x".repeat(100_000), "\u0000\n\r",
                "' OR 1=1 --", "é€😀", 42L, new Date());
        for (Serializable id : hostile) {
            assertThrows(UnknownSessionException.class, () -> dao.readSession(id), String.valueOf(id).length() + "");
            SimpleSession unknown = new SimpleSession();
            unknown.setId(id);
            dao.delete(unknown);
        }
        assertThrows(UnknownSessionException.class, () -> dao.readSession(null));
    }

    @Test
    void attributeKeysThatAreNoStringsAreRefusedWithTheReason() {
        Session read = dao.readSession(newSession(Map.of()).getId());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> read.setAttribute(42, "answer"));
        assertTrue(refused.getMessage().contains("must be Strings"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> read.setAttribute(SessionFields.HOST, "spoofed"));

        SimpleSession plain = new SimpleSession();
        plain.setAttribute(Boolean.TRUE, "flag");
        assertThrows(IllegalArgumentException.class, () -> dao.create(plain));
    }

    @Test
    void aSettingAfterInitIsRefusedRatherThanIgnored() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> dao.setTouchIntervalSeconds("1"));
        assertTrue(refused.getMessage().contains("before init()"), refused.getMessage());
    }

    @Test
    void withoutExpiryEventsNoSessionIsEverListed() {
        newSession(Map.of());
        assertEquals(List.of(), List.copyOf(dao.getActiveSessions()));
    }

    private static void runTogether(List<Callable<Void>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<Void>> running = new ArrayList<>();
            tasks.forEach(task -> running.add(pool.submit(task)));
            for (Future<Void> result : running) {
                result.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
