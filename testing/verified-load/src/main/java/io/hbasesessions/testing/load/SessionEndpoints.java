package io.hbasesessions.testing.load;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a webapp creates a session holding a counter, reads it, and adds one to it (paths relative to
 * the webapp's root), and how its answers show the counter: group 1 of {@code counter}.
 */
public record SessionEndpoints(String create, String read, String write, Pattern counter) {

    /** The test WAR's {@code /session} servlet: {@code incr} creates the session on its first use. */
    public static final SessionEndpoints TEST_WEBAPP = new SessionEndpoints("session?op=incr&name=visits",
            "session?op=get", "session?op=incr&name=visits", Pattern.compile("(?m)^attr\\.visits=(\\d+)$"));

    /** The counter an answer's body shows; empty when the answer shows no session. */
    OptionalInt counterIn(String body) {
        Matcher matcher = counter.matcher(body);
        return matcher.find() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
    }
}
