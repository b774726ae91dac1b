package io.hbasesessions.jetty.arquillian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jetty 12.0 through Arquillian's embedded Jetty container: the real test WAR, with the HBase store
 * installed by a {@code WEB-INF/jetty-web.xml} as a user of a plain WAR deployment would.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ArquillianJettyTest {

    private static EmbeddedHBase hbase;

    @ArquillianResource
    private URL base;

    @Deployment(testable = false)
    static WebArchive testWebapp() throws IOException {
        hbase = EmbeddedHBase.builder().dataDirectory(Files.createTempDirectory(Path.of("target"), "arquillian-hbase-"))
                .build().start();
        WebArchive war = ShrinkWrap.createFromZipFile(WebArchive.class,
                Path.of(System.getProperty("test.war", "target/wars/test-webapp.war")).toFile());
        return war.addAsWebInfResource(new StringAsset(jettyWebXml(hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort())),
                "jetty-web.xml");
    }

    @AfterAll
    static void stopHBase() {
        hbase.stop();
    }

    @Test
    void attributesOfWarClassesAndInPlaceChangesComeBackFromHBase() {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).build();
        get(browser, "op=put&name=cart&value=book");
        get(browser, "op=append&name=notes&value=one");
        get(browser, "op=append&name=notes&value=two");

        String session = get(browser, "op=get");

        assertTrue(session.contains("attr.cart=Note(book)"), session);
        assertTrue(session.contains("two"), "the in-place change was not stored: " + session);
        assertTrue(session.contains("new=false"), session);
    }

    @Test
    void aForgedIdGetsAFreshSession() {
        HttpClient stranger = HttpClient.newHttpClient();
        HttpRequest forged = HttpRequest.newBuilder(servlet("op=create"))
                .header("Cookie", "JSESSIONID=node0forged.node0").build();
        String reply = send(stranger, forged);
        assertTrue(reply.contains("new=true"), reply);
        assertTrue(!reply.contains("id=node0forged"), reply);
    }

    @Test
    void jettyIsTwelveZero() {
        assertEquals("12.0", org.eclipse.jetty.server.Server.getVersion().substring(0, 4));
    }

    private String get(HttpClient browser, String query) {
        return send(browser, HttpRequest.newBuilder(servlet(query)).build());
    }

    private URI servlet(String query) {
        return URI.create(base.toExternalForm().replaceFirst("/?$", "/") + "session?" + query);
    }

    private static String send(HttpClient client, HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The webapp's own session cache (evict on exit, store before commit) on the HBase store. */
    private static String jettyWebXml(String zookeeperQuorum) {
        return """
                <?xml version="1.0"?>
                <!DOCTYPE Configure PUBLIC "-//Jetty//Configure//EN" "https://jetty.org/configure_10_0.dtd">
                <Configure id="webapp" class="org.eclipse.jetty.ee10.webapp.WebAppContext">
                  <Get id="sessionHandler" name="sessionHandler"/>
                  <New id="storeFactory" class="io.hbasesessions.jetty.HBaseSessionDataStoreFactory">
                    <Call name="setSetting"><Arg>zookeeperQuorum</Arg><Arg>%s</Arg></Call>
                    <Call name="setSetting"><Arg>regions</Arg><Arg>1</Arg></Call>
                  </New>
                  <Ref refid="storeFactory">
                    <Call id="sessionDataStore" name="getSessionDataStore"><Arg><Ref refid="sessionHandler"/></Arg></Call>
                  </Ref>
                  <New class="io.hbasesessions.jetty.HBaseSessionCacheFactory">
                    <Call id="sessionCache" name="getSessionCache"><Arg><Ref refid="sessionHandler"/></Arg></Call>
                  </New>
                  <Ref refid="sessionCache">
                    <Set name="sessionDataStore"><Ref refid="sessionDataStore"/></Set>
                  </Ref>
                  <Ref refid="sessionHandler">
                    <Set name="sessionCache"><Ref refid="sessionCache"/></Set>
                  </Ref>
                </Configure>
                """.formatted(zookeeperQuorum);
    }
}
