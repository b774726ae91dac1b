package io.hbasesessions.integration;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser's side of HTTP DIGEST authentication (RFC 7616, MD5, {@code qop=auth}): it asks for a challenge,
 * answers it, and keeps and sends its session cookie, as a browser does.
 */
final class DigestClient {

    private static final Pattern PARAMETER = Pattern.compile("(\\w+)=\"([^\"]*)\"");
    private static final Pattern SESSION_COOKIE = Pattern.compile("JSESSIONID=([^;]*)");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String user;
    private final String password;
    private String cookie;

    DigestClient(String user, String password) {
        this.user = user;
        this.password = password;
    }

    /** Gets a challenge from {@code challenger} and answers it with a request to {@code answered}; returns its status. */
    int logIn(URI challenger, URI answered) throws IOException, InterruptedException {
        HttpResponse<String> challenge = send(HttpRequest.newBuilder(challenger));
        if (challenge.statusCode() != 401) {
            throw new AssertionError("no challenge from " + challenger + ": " + challenge.statusCode());
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        Matcher matcher = PARAMETER.matcher(challenge.headers().firstValue("WWW-Authenticate").orElseThrow());
        while (matcher.find()) {
            parameters.put(matcher.group(1), matcher.group(2));
        }
        String path = answered.getRawPath();
        String cnonce = Long.toHexString(System.nanoTime());
        String response = md5(md5(user + ":" + parameters.get("realm") + ":" + password) + ":" + parameters.get("nonce")
                + ":00000001:" + cnonce + ":auth:" + md5("GET:" + path));
        String authorization = "Digest username=\"" + user + "\", realm=\"" + parameters.get("realm") + "\", nonce=\""
                + parameters.get("nonce") + "\", uri=\"" + path + "\", qop=auth, nc=00000001, cnonce=\"" + cnonce
                + "\", response=\"" + response + "\", opaque=\"" + parameters.get("opaque") + "\"";
        return send(HttpRequest.newBuilder(answered).header("Authorization", authorization)).statusCode();
    }

    /** A request with the session cookie and no credentials; the page's {@code name=value} lines. */
    Map<String, String> get(URI target) throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(target));
        if (response.statusCode() != 200) {
            throw new AssertionError(target + " answered " + response.statusCode());
        }
        Map<String, String> values = new LinkedHashMap<>();
        response.body().lines().filter(line -> line.contains("=")).forEach(line ->
                values.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1)));
        return values;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (cookie != null) {
            request.header("Cookie", "JSESSIONID=" + cookie);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        response.headers().allValues("Set-Cookie").forEach(setCookie -> {
            Matcher session = SESSION_COOKIE.matcher(setCookie);
            if (session.find()) {
                cookie = session.group(1);
            }
        });
        return response;
    }

    private static String md5(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            return String.format("%032x", new BigInteger(1, digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform provides MD5", e);
        }
    }
}
