package io.hbasesessions.jetty;

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
 * A browser of one session: sends its JSESSIONID cookie to whichever node it is pointed at and keeps
 * the one the server sets. Answers of the test WAR's {@code /session} servlet come back as a map.
 */
final class SessionClient {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private volatile String cookie;

    SessionClient() {
    }

    /** A client that presents {@code cookieValue} as its session id, whatever it is. */
    static SessionClient withCookie(String cookieValue) {
        SessionClient client = new SessionClient();
        client.cookie = cookieValue;
        return client;
    }

    /** The JSESSIONID this client sends (with Jetty's {@code .nodeN} suffix), or null. */
    String cookie() {
        return cookie;
    }

    /** The session id without Jetty's node suffix. */
    String sessionId() {
        return cookie == null ? null : cookie.replaceFirst("\\.node\\d+$", "");
    }

    Reply get(URI servlet, String query) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(servlet + "?" + query)).timeout(REQUEST_TIMEOUT);
        if (cookie != null) {
            request.header("Cookie", "JSESSIONID=" + cookie);
        }
        long started = System.nanoTime();
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            newCookie(response).ifPresent(value -> cookie = value);
            return new Reply(response.statusCode(), parse(response.body()), Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new AssertionError("Request " + query + " to " + servlet + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted", e);
        }
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

    /** One answer: the status, the servlet's key=value lines and how long it took. */
    record Reply(int status, Map<String, String> values, Duration took) {

        String value(String key) {
            return values.get(key);
        }

        String attribute(String name) {
            return values.get("attr." + name);
        }

        boolean hasSession() {
            return status == 200 && values.containsKey("id") && !"none".equals(values.get("id"));
        }
    }
}
