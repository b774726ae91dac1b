package io.hbasesessions.shiro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.StoreConfigurationException;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.shiro.authc.UsernamePasswordToken;
import org.apache.shiro.config.Ini;
import org.apache.shiro.ini.IniSecurityManagerFactory;
import org.apache.shiro.mgt.DefaultSecurityManager;
import org.apache.shiro.mgt.SecurityManager;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.SessionListenerAdapter;
import org.apache.shiro.session.UnknownSessionException;
import org.apache.shiro.session.mgt.DefaultSessionManager;
import org.apache.shiro.subject.PrincipalCollection;
import org.apache.shiro.subject.Subject;
import org.apache.shiro.subject.support.DefaultSubjectContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code SessionListener.onExpiration} through the store's expiry events: two Shiro "nodes" (two security
 * managers from the example shiro.ini, each with its own DAO and validation scheduler) share one HBase, and
 * every session that idles out is reported once across both, with its attributes and its login, after it
 * expired; a session kept alive through the other node is not reported until it idles out itself, and an
 * application calling {@code getActiveSessions} meanwhile takes no event away.
 */
@ExtendWith(HBaseExtension.class)
class ShiroExpiryEventsTest {

    private static final long TIMEOUT_MILLIS = 2_000;
    private static final int SESSIONS = 20;
    /** Bound on waiting for the events: timeout + event delay (2 s) + a loaded machine's slack. */
    private static final long EVENTS_DEADLINE_MILLIS = 30_000;
    private static final long EARLIEST_EVENT_MILLIS = TIMEOUT_MILLIS - TIMEOUT_MILLIS / 10;

    private static final List<IniSecurityManagerFactory> factories = new ArrayList<>();
    private static final List<SecurityManager> nodes = new ArrayList<>();
    /** Every onExpiration of either node: the session's tag, user and when it fired. */
    private static final List<Expiration> expirations = new CopyOnWriteArrayList<>();
    /**
     * When each session, by tag, was last used: an event before its timeout passed is wrong, give or take the
     * store's touch debouncing (an access is written only a tenth of the timeout after the last written one).
     */
    private static final Map<String, Long> lastUsedMillis = new ConcurrentHashMap<>();

    record Expiration(String tag, String user, long atMillis) {
    }

    @BeforeAll
    static void startTwoNodes(EmbeddedHBase hbase, TestNamespace namespace) throws IOException {
        for (int node = 0; node < 2; node++) {
            Ini ini = ShiroIni.example(hbase, namespace);
            Map<String, String> main = ini.getSection("main");
            main.put("hbaseSessionDAO.expiryEvents", "true");
            main.put("hbaseSessionDAO.expiryEventDelaySeconds", "2");
            main.put("hbaseSessionDAO.expiryTable", namespace.table("session_expiry"));
            main.put("sessionManager.sessionValidationSchedulerEnabled", "true");
            main.put("sessionManager.globalSessionTimeout", Long.toString(TIMEOUT_MILLIS));
            Map<String, String> users = ini.getSection("users");
            users.put("keeper", "secret");
            for (int i = 0; i < SESSIONS; i++) {
                users.put("user" + i, "secret");
            }
            IniSecurityManagerFactory factory = ShiroIni.factory(ini);
            factories.add(factory);
            SecurityManager securityManager = instance(factory);
            sessionManager(securityManager).setSessionListeners(List.of(new SessionListenerAdapter() {
                @Override
                public void onExpiration(Session session) {
                    PrincipalCollection login = (PrincipalCollection) session.getAttribute(
                            DefaultSubjectContext.PRINCIPALS_SESSION_KEY);
                    expirations.add(new Expiration((String) session.getAttribute("tag"),
                            login == null ? null : (String) login.getPrimaryPrincipal(), System.currentTimeMillis()));
                }
            }));
            nodes.add(securityManager);
        }
    }

    @SuppressWarnings("deprecation")
    private static SecurityManager instance(IniSecurityManagerFactory factory) {
        return factory.getInstance();
    }

    @SuppressWarnings("deprecation")
    @AfterAll
    static void stopTheNodes() {
        factories.forEach(IniSecurityManagerFactory::destroy);
    }

    private static HBaseWebSessionManager sessionManager(SecurityManager securityManager) {
        return (HBaseWebSessionManager) ((DefaultSecurityManager) securityManager).getSessionManager();
    }

    @Test
    void everyIdleSessionIsReportedOnceAcrossTheNodesAndAKeptAliveOneOnlyWhenItIdlesOut() throws Exception {
        assertTrue(sessionManager(nodes.get(0)).getSessionValidationInterval() <= 1_000,
                "validation runs every expiryEventDelaySeconds / 2");
        List<Serializable> idle = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            idle.add(loggedIn(nodes.get(i % 2), "user" + i, "idle" + i));
        }
        Serializable keptAlive = loggedIn(nodes.get(0), "keeper", "kept");

        long keepAliveUntil = System.currentTimeMillis() + 3 * TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < keepAliveUntil) {
            use(nodes.get(1), keptAlive, "kept");
            // An application listing sessions (an admin page) sweeps nothing: no event is lost to it.
            assertEquals(List.of(), List.copyOf(ShiroIni.dao(factories.get(0)).getActiveSessions()));
            Thread.sleep(TIMEOUT_MILLIS / 4);
        }
        awaitExpirations(SESSIONS);
        assertEquals(0, count("kept"), "no event while the session was in use on the other node");
        for (int i = 0; i < SESSIONS; i++) {
            assertEquals(1, count("idle" + i), "idle" + i + ": " + expirations);
        }
        for (Expiration expiration : expirations) {
            assertEquals("user" + expiration.tag().substring("idle".length()), expiration.user());
            assertTrue(expiration.atMillis() >= lastUsedMillis.get(expiration.tag()) + EARLIEST_EVENT_MILLIS,
                    expiration + " fired before its session expired");
        }
        for (Serializable id : idle) {
            HBaseSessionDAO dao = ShiroIni.dao(factories.get(0));
            assertThrows(UnknownSessionException.class, () -> dao.readSession(id));
        }

        awaitExpirations(SESSIONS + 1);
        Expiration kept = expirations.stream().filter(expiration -> "kept".equals(expiration.tag())).findFirst().orElseThrow();
        assertEquals("keeper", kept.user());
        assertTrue(kept.atMillis() >= lastUsedMillis.get("kept") + EARLIEST_EVENT_MILLIS, kept.toString());
        Thread.sleep(2 * TIMEOUT_MILLIS);
        assertEquals(SESSIONS + 1, expirations.size(), "no second event: " + expirations);
    }

    @Test
    void expiryEventsWithShirosValidationSchedulerOffStopTheStartWithTheFix(EmbeddedHBase hbase, TestNamespace namespace)
            throws IOException {
        Ini ini = ShiroIni.example(hbase, namespace);
        ini.getSection("main").put("hbaseSessionDAO.expiryEvents", "true");
        ini.getSection("main").put("hbaseSessionDAO.expiryTable", namespace.table("session_expiry"));
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class, () -> ShiroIni.factory(ini));
        assertTrue(refused.getMessage().contains("sessionValidationSchedulerEnabled = true"), refused.getMessage());
    }

    private static Serializable loggedIn(SecurityManager node, String user, String tag) {
        Subject subject = new Subject.Builder(node).buildSubject();
        subject.login(new UsernamePasswordToken(user, "secret"));
        subject.getSession().setAttribute("tag", tag);
        lastUsedMillis.put(tag, System.currentTimeMillis());
        return subject.getSession().getId();
    }

    /** A request of the session's user on {@code node}: Shiro touches the session. */
    private static void use(SecurityManager node, Serializable id, String tag) {
        Subject subject = new Subject.Builder(node).sessionId(id).buildSubject();
        assertTrue(subject.isAuthenticated(), tag + " is still logged in");
        subject.getSession().touch();
        lastUsedMillis.put(tag, System.currentTimeMillis());
    }

    private static long count(String tag) {
        return expirations.stream().filter(expiration -> tag.equals(expiration.tag())).count();
    }

    private static void awaitExpirations(int expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + EVENTS_DEADLINE_MILLIS;
        while (expirations.size() < expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(expected, expirations.size(), expirations.toString());
    }
}
