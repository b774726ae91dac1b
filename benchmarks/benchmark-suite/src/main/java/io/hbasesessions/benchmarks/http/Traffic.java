package io.hbasesessions.benchmarks.http;

import java.util.List;
import java.util.Locale;

/**
 * Who sends a workload's requests: {@code connections} keep-alive connections, each request carrying the cookie of
 * one of {@code cookies} picked at random, so that a request's session is rarely the one its connection sent before
 * (as behind a load balancer that spreads users over nodes). One cookie makes every request hit one hot session.
 *
 * @param cookies {@code NAME=value} of sessions made before the load starts
 * @param generatorThreads how many threads (wrk) the load generator spreads the connections over
 */
public record Traffic(List<String> cookies, int connections, int generatorThreads) {

    public Traffic {
        cookies = List.copyOf(cookies);
        if (cookies.isEmpty() || connections < 1 || generatorThreads < 1 || generatorThreads > connections) {
            throw new IllegalArgumentException("Traffic needs a cookie, a connection, and 1 to " + connections
                    + " generator threads, not " + cookies.size() + " cookies, " + connections + " connections, "
                    + generatorThreads + " threads");
        }
    }

    /** A description for the report: "16 connections over 1,000 sessions". */
    public String describe() {
        return connections + " connection" + (connections == 1 ? "" : "s") + " over " + (cookies.size() == 1
                ? "one session" : String.format(Locale.ROOT, "%,d sessions", cookies.size()));
    }
}
