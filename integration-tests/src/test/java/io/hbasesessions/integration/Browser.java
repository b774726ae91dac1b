package io.hbasesessions.integration;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One browser: a single JSESSIONID cookie, sent to whichever node a request goes to and replaced by
 * the one a node sets, as a browser does for one host (cookies ignore the port, so both nodes on
 * localhost share it). The cookie value is sent as it is, with Jetty's {@code .node0} suffix when Jetty
 * set it last. Safe for concurrent requests (two tabs of one browser).
 */
final class Browser {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private volatile String cookie;

    /** A browser that presents {@code cookieValue} as its JSESSIONID cookie. */
    static Browser withCookie(String cookieValue) {
        Browser browser = new Browser();
        browser.cookie = cookieValue;
        return browser;
    }

    /** The JSESSIONID value this browser sends, or null. */
    String cookie() {
        return cookie;
    }

    /** {@code GET <servlet>?<query>} on {@code node}: the test WAR's {@code key=value} lines; fails the test unless 200. */
    Map<String, String> get(Node node, String query) {
        String target = node.servlet() + "?" + query;
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target)).timeout(REQUEST_TIMEOUT);
        String sent = cookie;
        if (sent != null) {
            request.header("Cookie", "JSESSIONID=" + sent);
        }
        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(node.container() + ": GET " + target + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted during GET " + target, e);
        }
        if (response.statusCode() != 200) {
            throw new AssertionError(node.container() + ": GET " + target + " (cookie " + sent + ") answered "
                    + response.statusCode() + ":\n" + response.body());
        }
        newCookie(response).ifPresent(value -> cookie = value);
        return parse(response.body());
    }

    /**
     * A session id without a route suffix (Jetty's {@code .node0}, Tomcat's {@code .jvmRoute}): what
     * both containers hash into the row key, so the same session on either node.
     */
    static String withoutRoute(String sessionId) {
        int routeStart = sessionId.indexOf('.');
        return routeStart < 0 ? sessionId : sessionId.substring(0, routeStart);
    }

    private static Optional<String> newCookie(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream()
                .filter(header -> header.startsWith("JSESSIONID="))
                .map(header -> header.substring("JSESSIONID=".length()).split(";", 2)[0])
                .reduce((first, last) -> last);
    }

    private static Map<String, String> parse(String body) {
        Map<String, String> values = new LinkedHashMap<>();
        body.lines().filter(line -> line.contains("=")).forEach(line -> {
            int equals = line.indexOf('=');
            values.put(line.substring(0, equals), line.substring(equals + 1));
        });
        return values;
    }
}
