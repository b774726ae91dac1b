package io.hbasesessions.testing;

import java.net.URI;
import java.time.Duration;

/**
 * What both adapters' expiry event tests do over HTTP against the test WAR: two sessions with a 2 s idle
 * timeout and a listening attribute each, one left idle and one kept active by a request every 300 ms for
 * {@code keptFor}; then what the node's webapp counted and what each session holds afterwards.
 */
public final class IdleAndActiveSessions {

    /** Events counted during the run, and each session's state after it ({@code "none"}: no session). */
    public record Outcome(long destroyed, long unbound, String idleSessionAfterwards, String activeNoteAfterwards) {
    }

    private IdleAndActiveSessions() {
    }

    public static Outcome run(URI servlet, Duration keptFor) throws InterruptedException {
        Browser idle = new Browser();
        idle.get(servlet, "op=listen&name=note&value=idle").expect(200);
        idle.get(servlet, "op=timeout&seconds=2").expect(200);
        Browser active = new Browser();
        active.get(servlet, "op=listen&name=note&value=active").expect(200);
        active.get(servlet, "op=timeout&seconds=2").expect(200);
        long destroyed = events(servlet, "destroyed");
        long unbound = events(servlet, "unbound");

        long until = System.nanoTime() + keptFor.toNanos();
        while (System.nanoTime() < until) {
            active.get(servlet, "op=get").expect(200);
            Thread.sleep(300);
        }

        return new Outcome(events(servlet, "destroyed") - destroyed, events(servlet, "unbound") - unbound,
                Browser.withCookie(idle.cookie()).get(servlet, "op=get").value("id"),
                active.get(servlet, "op=get").attribute("note"));
    }

    private static long events(URI servlet, String event) {
        return Long.parseLong(new Browser().get(servlet, "op=events").value(event));
    }
}
