package io.hbasesessions.testing;

import io.hbasesessions.store.SessionIds;
import java.io.IOException;
import java.io.InputStream;
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
 * One browser, as the tests need it: it keeps one session cookie ({@code JSESSIONID}, or another name given to
 * {@link #Browser(String)}, such as Spring WebFlux's {@code SESSION}), sends it with every request
 * to whichever node a request goes to, and replaces it with the one a node sets, as a browser does for
 * one host (cookies ignore the port, so nodes on one machine share it). The cookie is sent as it is,
 * with Jetty's {@code .node0} or Tomcat's {@code .jvmRoute} suffix. Safe for concurrent requests (two
 * tabs of one browser). Redirects are not followed. A request that gets no answer fails the test.
 */
public final class Browser {

    private static final String JSESSIONID = "JSESSIONID";
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final String cookieName;
    private final Pattern sessionCookie;
    private volatile String cookie;

    /** A browser whose session cookie is {@code JSESSIONID}. */
    public Browser() {
        this(JSESSIONID);
    }

    /** A browser whose session cookie is {@code cookieName}. */
    public Browser(String cookieName) {
        this.cookieName = cookieName;
        this.sessionCookie = Pattern.compile("(?i)^\\s*" + Pattern.quote(cookieName) + "=([^;]*)");
    }

    /** A browser that presents {@code cookieValue} as its session cookie (a copied, stolen or forged one). */
    public static Browser withCookie(String cookieValue) {
        return withCookie(JSESSIONID, cookieValue);
    }

    /** A browser that presents {@code cookieValue} as its session cookie {@code cookieName}. */
    public static Browser withCookie(String cookieName, String cookieValue) {
        Browser browser = new Browser(cookieName);
        browser.cookie = cookieValue;
        return browser;
    }

    /** The session cookie's value this browser sends, route suffix included, or null. */
    public String cookie() {
        return cookie;
    }

    /** The session id of the cookie without its route suffix: what both containers hash into the row key. */
    public String sessionId() {
        if (cookie == null) {
            throw new AssertionError("No session cookie was set");
        }
        return withoutRoute(cookie);
    }

    /** {@code id} without a route suffix (Jetty's {@code .node0}, Tomcat's {@code .jvmRoute}). */
    public static String withoutRoute(String id) {
        return SessionIds.withoutRoute(id);
    }

    /** {@code GET <servlet>?<query>}, e.g. the test WAR's {@code get(servlet, "op=put&name=a&value=b")}. */
    public Answer get(URI servlet, String query) {
        return get(URI.create(servlet + "?" + query));
    }

    public Answer get(URI target) {
        return send(HttpRequest.newBuilder(target).GET());
    }

    /** Posts {@code form} as {@code application/x-www-form-urlencoded}, as a browser submits a form. */
    public Answer post(URI target, Map<String, String> form) {
        StringJoiner body = new StringJoiner("&");
        form.forEach((name, value) -> body.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return send(HttpRequest.newBuilder(target)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    /**
     * {@code GET <servlet>?<query>} with more request headers: a marker header, or a {@code Cookie}
     * header of its own (this browser's cookie is then not sent).
     */
    public Answer get(URI servlet, String query, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(servlet + "?" + query)).GET();
        headers.forEach(request::header);
        return send(request, headers.keySet().stream().noneMatch("Cookie"::equalsIgnoreCase));
    }

    /**
     * Sends {@code GET <servlet>?<query>} and returns as soon as the status line and the headers have
     * arrived, while the body may still be on its way: a client that acts on the headers (follows a
     * redirect, sends its next request at once) sees the answer that early. The cookie it sets is taken
     * at once. {@link Streaming#finish} reads the body to its end.
     */
    public Streaming open(URI servlet, String query) {
        HttpRequest built = prepare(HttpRequest.newBuilder(URI.create(servlet + "?" + query)).GET(), true);
        long started = System.nanoTime();
        HttpResponse<InputStream> response = exchange(built, HttpResponse.BodyHandlers.ofInputStream());
        return new Streaming(built, response, started);
    }

    private Answer send(HttpRequest.Builder request) {
        return send(request, true);
    }

    private Answer send(HttpRequest.Builder request, boolean withCookie) {
        HttpRequest built = prepare(request, withCookie);
        long started = System.nanoTime();
        HttpResponse<String> response = exchange(built, HttpResponse.BodyHandlers.ofString());
        return new Answer(built.uri(), response.statusCode(), response.body(), Duration.ofNanos(System.nanoTime() - started),
                response.headers().firstValue("Location").orElse(null));
    }

    private HttpRequest prepare(HttpRequest.Builder request, boolean withCookie) {
        String sent = cookie;
        if (withCookie && sent != null) {
            request.header("Cookie", cookieName + "=" + sent);
        }
        return request.timeout(REQUEST_TIMEOUT).build();
    }

    /** Sends the request; the answer's cookie is taken as soon as its headers are in. */
    private <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> body) {
        try {
            HttpResponse<T> response = HTTP.send(request, body);
            response.headers().allValues("Set-Cookie").forEach(this::remember);
            return response;
        } catch (IOException e) {
            throw new AssertionError(request.method() + " " + request.uri() + " (" + request.headers().firstValue("Cookie")
                    .orElse("no cookie") + ") failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted during " + request.method() + " " + request.uri(), e);
        }
    }

    /** An empty value deletes the cookie, as a browser does. */
    private void remember(String setCookie) {
        Matcher session = sessionCookie.matcher(setCookie);
        if (session.find()) {
            cookie = session.group(1).isEmpty() ? null : session.group(1);
        }
    }

    /** An answer whose headers have arrived ({@link #open}); its body is read by {@link #finish}. */
    public static final class Streaming {
        private final HttpRequest request;
        private final HttpResponse<InputStream> response;
        private final long startedNanos;
        private final Duration untilHeaders;

        private Streaming(HttpRequest request, HttpResponse<InputStream> response, long startedNanos) {
            this.request = request;
            this.response = response;
            this.startedNanos = startedNanos;
            this.untilHeaders = Duration.ofNanos(System.nanoTime() - startedNanos);
        }

        public int status() {
            return response.statusCode();
        }

        /** From sending the request until its headers arrived. */
        public Duration untilHeaders() {
            return untilHeaders;
        }

        /** Reads the body to its end: the whole answer, its elapsed time measured until the body's end. */
        public Answer finish() {
            try (InputStream body = response.body()) {
                String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                return new Answer(request.uri(), response.statusCode(), text, Duration.ofNanos(System.nanoTime() - startedNanos));
            } catch (IOException e) {
                throw new AssertionError("Reading the answer of " + request.uri() + " failed: " + e, e);
            }
        }
    }

    /**
     * An HTTP answer. For text answers of {@code key=value} lines (the test WAR's {@code /session}, the
     * shop's {@code cart.txt}), {@link #values()} and the accessors read them.
     *
     * @param location the {@code Location} header of a redirect, or null
     */
    public record Answer(URI target, int status, String body, Duration elapsed, String location) {

        public Answer(URI target, int status, String body, Duration elapsed) {
            this(target, status, body, elapsed, null);
        }

        /** This answer, if its status is {@code expected}; otherwise the test fails with the answer. */
        public Answer expect(int expected) {
            if (status != expected) {
                throw new AssertionError(target + " answered " + status + ", not " + expected + ":\n" + body);
            }
            return this;
        }

        /** The body's {@code key=value} lines, in order. */
        public Map<String, String> values() {
            Map<String, String> values = new LinkedHashMap<>();
            body.lines().forEach(line -> {
                int equals = line.indexOf('=');
                if (equals > 0) {
                    values.put(line.substring(0, equals), line.substring(equals + 1));
                }
            });
            return values;
        }

        /** The value of {@code key}; the test fails if the answer has none. */
        public String value(String key) {
            String value = values().get(key);
            if (value == null) {
                throw new AssertionError("No '" + key + "' in the answer of " + target + " (HTTP " + status + "):\n" + body);
            }
            return value;
        }

        /** The test WAR's session attributes ({@code attr.<name>} lines), by name. */
        public Map<String, String> attributes() {
            Map<String, String> attributes = new LinkedHashMap<>();
            values().forEach((key, value) -> {
                if (key.startsWith("attr.")) {
                    attributes.put(key.substring("attr.".length()), value);
                }
            });
            return attributes;
        }

        /** One attribute as the test WAR shows it, or null. */
        public String attribute(String name) {
            return values().get("attr." + name);
        }

        /** Whether the test WAR answered with a session. */
        public boolean hasSession() {
            return status == 200 && !"none".equals(values().getOrDefault("id", "none"));
        }
    }
}
