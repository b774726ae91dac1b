package io.hbasesessions.testapp;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** How the WAR's servlets answer: {@code key=value} lines of plain text, never cached. */
public final class Answers {

    private Answers() {
    }

    public static String lines(Map<String, String> values) {
        StringBuilder body = new StringBuilder();
        values.forEach((key, value) -> body.append(key).append('=').append(value).append('\n'));
        return body.toString();
    }

    /** Through the writer, without a Content-Length: committed when the request ends. */
    public static void write(HttpServletResponse response, Map<String, String> values) throws IOException {
        plainText(response);
        response.getWriter().print(lines(values));
    }

    /** With a Content-Length: the response is committed the moment the last byte is written. */
    public static void writeWithLength(HttpServletResponse response, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        plainText(response);
        response.setContentLength(bytes.length);
        OutputStream out = response.getOutputStream();
        out.write(bytes);
    }

    public static void plainText(HttpServletResponse response) {
        response.setContentType("text/plain;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
    }

    public static int intParameter(ServletRequest request, String name, int defaultValue) {
        String value = request.getParameter(name);
        return value == null ? defaultValue : Integer.parseInt(value);
    }

    /** Sleeps for the request's {@code work} parameter (milliseconds): slow work, or work after the answer. */
    public static void work(ServletRequest request) {
        sleep(intParameter(request, "work", 0));
    }

    /**
     * The work a request does after its answer: with {@code holdAfterCommit=NAME} (and {@link Gates#expect} called
     * when the request began) it waits at gate NAME until the client has read what it wanted while this request
     * still runs, if the answer was sent (one that was not would never reach that client); otherwise
     * {@link #work}.
     */
    public static void workAfterAnswering(ServletRequest request, boolean answerSent) {
        String gate = request.getParameter(Gates.HOLD_AFTER_COMMIT);
        if (gate == null) {
            work(request);
        } else if (answerSent) {
            Gates.awaitUninterrupted(gate);
        } else {
            Gates.pass(gate);
        }
    }

    public static void sleep(int millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
