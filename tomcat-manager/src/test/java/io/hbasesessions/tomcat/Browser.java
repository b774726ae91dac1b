package io.hbasesessions.tomcat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One browser tab's view of the test WAR: sends {@code /app/session?op=...} to whichever node it is
 * told, keeps the JSESSIONID cookie like a browser would, and reads the {@code key=value} answer.
 */
final class Browser {

    private static final Pattern SESSION_COOKIE = Pattern.compile("JSESSIONID=([^;]*)");
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private volatile String sessionId;

    Browser() {
    }

    /** A browser that already holds {@code sessionId} (a copied, stolen or forged cookie). */
    static Browser withCookie(String sessionId) {
        Browser browser = new Browser();
        browser.sessionId = sessionId;
        return browser;
    }

    /** Requests {@code op} and its parameters (e.g. {@code "put&name=a&value=b"}) from {@code baseUri} (ending in /app/). */
    Answer call(URI baseUri, String opAndParameters) {
        HttpRequest.Builder request = HttpRequest.newBuilder(baseUri.resolve("session?op=" + opAndParameters))
                .timeout(Duration.ofSeconds(60));
        if (sessionId != null) {
            request.header("Cookie", "JSESSIONID=" + sessionId);
        }
        long start = System.nanoTime();
        HttpResponse<String> response = send(request.build());
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        response.headers().allValues("Set-Cookie").forEach(this::remember);
        return new Answer(response.statusCode(), response.body(), elapsed);
    }

    String sessionId() {
        return sessionId;
    }

    private void remember(String setCookie) {
        Matcher matcher = SESSION_COOKIE.matcher(setCookie);
        if (matcher.find()) {
            sessionId = matcher.group(1).isEmpty() ? null : matcher.group(1);
        }
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An HTTP answer; for 200 answers of the servlet, its {@code key=value} lines. */
    record Answer(int status, String body, Duration elapsed) {

        Map<String, String> values() {
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : body.split("\n")) {
                int equals = line.indexOf('=');
                if (equals > 0) {
                    values.put(line.substring(0, equals), line.substring(equals + 1).strip());
                }
            }
            return values;
        }

        String value(String key) {
            return Optional.ofNullable(values().get(key))
                    .orElseThrow(() -> new AssertionError("No '" + key + "' in the answer (HTTP " + status + "):\n" + body));
        }

        /** The session attributes shown, by name. */
        Map<String, String> attributes() {
            Map<String, String> attributes = new LinkedHashMap<>();
            values().forEach((key, value) -> {
                if (key.startsWith("attr.")) {
                    attributes.put(key.substring("attr.".length()), value);
                }
            });
            return attributes;
        }
    }
}
