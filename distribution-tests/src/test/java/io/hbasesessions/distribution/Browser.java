package io.hbasesessions.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a browser does with the shop: it keeps one {@code JSESSIONID} cookie per host and sends it to
 * every port of that host (cookies ignore ports), so two nodes on one machine see the same cookie.
 */
final class Browser {

    private static final Pattern SESSION_COOKIE = Pattern.compile("(?i)^JSESSIONID=([^;]*)");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private String sessionCookie;

    /** Sends one of the shop's forms ({@code action=add&sku=mug...}); the shop answers with a redirect. */
    void act(URI shop, Map<String, String> form) throws IOException, InterruptedException {
        StringJoiner body = new StringJoiner("&");
        form.forEach((name, value) -> body.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        HttpRequest.Builder post = HttpRequest.newBuilder(shop).timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        HttpResponse<String> response = send(post);
        assertEquals(302, response.statusCode(), "POST " + form + " to " + shop + ": " + response.body());
    }

    /** The facts of {@code cart.txt}: {@code node}, {@code server}, {@code user}, {@code session}, {@code item.<sku>}. */
    Map<String, String> facts(URI shop) throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(shop.resolve("cart.txt")).timeout(TIMEOUT).GET());
        assertEquals(200, response.statusCode(), "GET cart.txt on " + shop + ": " + response.body());
        Map<String, String> facts = new LinkedHashMap<>();
        response.body().lines().filter(line -> line.contains("=")).forEach(line -> {
            int equals = line.indexOf('=');
            facts.put(line.substring(0, equals), line.substring(equals + 1));
        });
        return facts;
    }

    /** The session id the cookie carries, without a route suffix (Jetty's {@code .node0}): the id HBase rows are keyed by. */
    String sessionId() {
        if (sessionCookie == null) {
            throw new AssertionError("No session cookie was set");
        }
        int suffix = sessionCookie.indexOf('.');
        return suffix < 0 ? sessionCookie : sessionCookie.substring(0, suffix);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (sessionCookie != null) {
            request.header("Cookie", "JSESSIONID=" + sessionCookie);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        for (String setCookie : response.headers().allValues("Set-Cookie")) {
            Matcher session = SESSION_COOKIE.matcher(setCookie);
            if (session.find()) {
                sessionCookie = session.group(1);
            }
        }
        return response;
    }
}
