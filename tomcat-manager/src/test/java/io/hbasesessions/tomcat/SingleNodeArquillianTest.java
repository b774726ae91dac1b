package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.URL;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test WAR on Arquillian's embedded Tomcat, installed the way users install it: one
 * {@code <Manager>} line in the WAR's {@code META-INF/context.xml}. The store's counters are read over
 * JMX, as an operator would.
 */
@ExtendWith({HBaseForDeployments.class, ArquillianExtension.class})
class SingleNodeArquillianTest {

    private static final int READ_ONLY_REQUESTS = 20;

    @ArquillianResource
    private URL deploymentUrl;

    @Deployment(testable = false)
    static WebArchive testWar() {
        String contextXml = "<Context>\n  <Realm className=\"" + TestRealm.class.getName() + "\"/>\n  "
                + HBaseForDeployments.managerElement("touchIntervalSeconds=\"60\"") + "\n</Context>\n";
        return ShrinkWrap.create(WebArchive.class, "app.war")
                .merge(ShrinkWrap.createFromZipFile(WebArchive.class, TomcatNode.testWar().toFile()))
                .addAsManifestResource(new StringAsset(contextXml), "context.xml");
    }

    @Test
    void runsOnTheTomcatVersionUnderTest() {
        String expected = System.getProperty("expected.tomcat.version");
        assertEquals("Apache Tomcat/" + expected, new Browser().get(base(), "op=node").value("server"));
    }

    @Test
    void readOnlyRequestsWithinTheTouchIntervalWriteNothing() throws Exception {
        Browser browser = new Browser();
        browser.get(base(), "op=put&name=a&value=1");
        long writesBefore = sessionWrites();
        long unchangedBefore = counter("unchangedSaves") + counter("touchesSkipped");

        for (int i = 0; i < READ_ONLY_REQUESTS; i++) {
            assertEquals(Map.of("a", "Note(1)"), browser.get(base(), "op=get").attributes());
            assertEquals(200, browser.get(base(), "op=touch").status());
        }

        assertEquals(writesBefore, sessionWrites(), "no HBase write for reads within touchIntervalSeconds");
        assertEquals(unchangedBefore + 2 * READ_ONLY_REQUESTS,
                counter("unchangedSaves") + counter("touchesSkipped"), "every request ended in a skipped save");
    }

    @Test
    void forgedGarbageOverlongAndExpiredIdsGetAFreshSessionAndTouchNoStoredOne() throws Exception {
        Browser victim = new Browser();
        victim.get(base(), "op=put&name=secret&value=s1");
        Browser shortLived = new Browser();
        shortLived.get(base(), "op=timeout&seconds=1");
        Thread.sleep(2_100);

        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("forged", HexFormat.of().withUpperCase().formatHex(new SecureRandom().generateSeed(16)));
        ids.put("forged with a route", "0".repeat(32) + ".a");
        ids.put("garbage", "../../etc/passwd%00");
        ids.put("overlong", "A".repeat(4000));
        ids.put("expired", shortLived.cookie());
        long writesBefore = sessionWrites();
        long createsBefore = counter("creates");

        for (Map.Entry<String, String> id : ids.entrySet()) {
            Answer lookup = Browser.withCookie(id.getValue()).get(base(), "op=get");
            assertEquals("none", lookup.value("id"), id.getKey() + ": no session found");
            Browser tab = Browser.withCookie(id.getValue());
            Answer put = tab.get(base(), "op=put&name=mine&value=" + id.getKey().replace(' ', '-'));
            assertEquals(200, put.status(), put.body());
            assertNotEquals(id.getValue(), tab.cookie(), id.getKey() + ": a new id, not the one sent");
            assertEquals(Set.of("mine"), put.attributes().keySet(), id.getKey() + ": a fresh session");
        }

        assertEquals(ids.size(), counter("creates") - createsBefore);
        assertEquals(ids.size(), sessionWrites() - writesBefore, "only the new sessions were written");
        assertEquals(Map.of("secret", "Note(s1)"), victim.get(base(), "op=get").attributes());
    }

    /** The store's MBean: one attribute per counter, all readable, the settings in force. */
    @Test
    void theStoresMBeanShowsEveryCounterAndTheSettings() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName store = storeName();
        for (StoreCounter counter : StoreCounter.values()) {
            assertTrue(server.getAttribute(store, counter.counterName()) instanceof Long, counter.counterName());
        }
        assertTrue(((String) server.getAttribute(store, "settings")).contains("keyScope=/app"));
        assertEquals("/app", server.getAttribute(store, "keyScope"));
    }

    private URI base() {
        return URI.create(deploymentUrl.toString()).resolve("session");
    }

    /** A counter of the store, as JMX shows it. */
    private static long counter(String attribute) throws Exception {
        return (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(storeName(), attribute);
    }

    /** Every write that reached a session row. */
    private static long sessionWrites() throws Exception {
        return counter("creates") + counter("fullWrites") + counter("touches") + counter("idChanges");
    }

    private static ObjectName storeName() throws Exception {
        Set<ObjectName> stores = ManagementFactory.getPlatformMBeanServer()
                .queryNames(new ObjectName("io.hbasesessions:type=SessionStore,context=\"localhost/app\",*"), null);
        assertEquals(1, stores.size(), "one store MBean for /app: " + stores);
        return stores.iterator().next();
    }
}
