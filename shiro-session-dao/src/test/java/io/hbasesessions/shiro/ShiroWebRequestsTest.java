package io.hbasesessions.shiro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.shiro.SecurityUtils;
import org.apache.shiro.authc.UsernamePasswordToken;
import org.apache.shiro.env.NamedObjectEnvironment;
import org.apache.shiro.subject.Subject;
import org.apache.shiro.web.env.EnvironmentLoaderListener;
import org.apache.shiro.web.env.WebEnvironment;
import org.apache.shiro.web.servlet.ShiroFilter;
import org.apache.shiro.web.util.WebUtils;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shiro web applications over HTTP on an embedded Tomcat, configured by the example shiro.ini: {@code /cached}
 * as given (HBaseWebSessionManager), {@code /plain} with Shiro's DefaultWebSessionManager, to count
 * what a request of a logged-in user reads and writes.
 */
@ExtendWith(HBaseExtension.class)
class ShiroWebRequestsTest {

    private static final int REQUESTS = 20;

    @TempDir
    static Path work;
    private static Tomcat tomcat;
    private static Context cached;
    private static Context plain;

    @BeforeAll
    static void start(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        tomcat = new Tomcat();
        tomcat.setBaseDir(work.toString());
        tomcat.setPort(0);
        tomcat.getConnector();
        String example = ShiroIni.exampleText(hbase, namespace, "/cached");
        cached = shiroApplication("/cached", example);
        plain = shiroApplication("/plain", example.replace("/cached", "/plain").replace(
                "sessionManager = io.hbasesessions.shiro.HBaseWebSessionManager",
                "sessionManager = org.apache.shiro.web.session.mgt.DefaultWebSessionManager"));
        tomcat.start();
    }

    @AfterAll
    static void stop() throws Exception {
        tomcat.stop();
        tomcat.destroy();
    }

    private static Context shiroApplication(String path, String iniText) throws IOException {
        Path ini = Files.writeString(work.resolve(path.substring(1) + ".ini"), iniText);
        Context context = tomcat.addContext(path, Files.createDirectories(work.resolve(path.substring(1))).toString());
        context.addParameter("shiroConfigLocations", "file:" + ini);
        context.addApplicationListener(EnvironmentLoaderListener.class.getName());
        FilterDef filter = new FilterDef();
        filter.setFilterName("ShiroFilter");
        filter.setFilterClass(ShiroFilter.class.getName());
        context.addFilterDef(filter);
        FilterMap mapping = new FilterMap();
        mapping.setFilterName("ShiroFilter");
        mapping.addURLPattern("/*");
        context.addFilterMap(mapping);
        Tomcat.addServlet(context, "account", new AccountServlet());
        context.addServletMappingDecoded("/*", "account");
        return context;
    }

    /** {@code /login?user=NAME} logs in and fills the cart; {@code /account} (Shiro's authc) answers with both. */
    static final class AccountServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            Subject subject = SecurityUtils.getSubject();
            if ("/login".equals(request.getPathInfo())) {
                subject.login(new UsernamePasswordToken(request.getParameter("user"), "secret"));
                subject.getSession().setAttribute("cart", "book");
            }
            response.getWriter().print(subject.getPrincipal() + " " + subject.getSession().getAttribute("cart"));
        }
    }

    @Test
    void aRequestOfALoggedInUserReadsItsSessionOnceAndWritesNothing() throws Exception {
        long cachedLoads = loadsPerAccountRequest(cached);
        long plainLoads = loadsPerAccountRequest(plain);
        System.out.println("HBase reads per request of a logged-in user: HBaseWebSessionManager "
                + cachedLoads + ", DefaultWebSessionManager " + plainLoads);
        assertEquals(1, cachedLoads);
        assertTrue(plainLoads > 1, plainLoads + " loads");
    }

    private static long loadsPerAccountRequest(Context application) throws Exception {
        HttpClient browser = browser();
        assertEquals("alice book", get(browser, application, "/login?user=alice").body());
        HBaseSessionDAO dao = daoOf(application);
        StoreCounters before = dao.getCounters();
        for (int i = 0; i < REQUESTS; i++) {
            HttpResponse<String> response = get(browser, application, "/account");
            assertEquals(200, response.statusCode());
            assertEquals("alice book", response.body());
        }
        StoreCounters after = dao.getCounters();
        assertEquals(0, after.sessionWrites() - before.sessionWrites());
        long loads = after.get(StoreCounter.LOADS) - before.get(StoreCounter.LOADS);
        assertEquals(0, loads % REQUESTS, loads + " loads");
        return loads / REQUESTS;
    }

    @Test
    void logoutAndLogOutEverywhereSendTheNextRequestToTheLoginPage() throws Exception {
        HttpClient loggedOut = browser();
        assertEquals("alice book", get(loggedOut, cached, "/login?user=alice").body());
        assertEquals(200, get(loggedOut, cached, "/account").statusCode());
        assertEquals(302, get(loggedOut, cached, "/logout").statusCode());
        assertEquals(302, get(loggedOut, cached, "/account").statusCode());

        HttpClient first = browser();
        HttpClient second = browser();
        assertEquals("bob book", get(first, cached, "/login?user=bob").body());
        assertEquals("bob book", get(second, plain, "/login?user=bob").body());
        assertEquals(200, get(first, cached, "/account").statusCode());

        assertEquals(2, daoOf(cached).revokeAll("bob"));
        assertEquals(302, get(first, cached, "/account").statusCode());
        assertEquals(302, get(second, plain, "/account").statusCode());
    }

    private static HBaseSessionDAO daoOf(Context application) {
        WebEnvironment environment = WebUtils.getRequiredWebEnvironment(application.getServletContext());
        return ((NamedObjectEnvironment) environment).getObject("hbaseSessionDAO", HBaseSessionDAO.class);
    }

    private static HttpClient browser() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    private static HttpResponse<String> get(HttpClient browser, Context application, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + application.getPath() + path);
        return browser.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }
}
