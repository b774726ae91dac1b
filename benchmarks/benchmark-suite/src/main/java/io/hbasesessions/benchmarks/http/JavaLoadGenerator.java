package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Measurement;
import io.hbasesessions.benchmarks.TimedLoop;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/** The load generator that needs nothing installed: one thread per keep-alive connection. */
public final class JavaLoadGenerator implements LoadGenerator {

    /** Bounds each connection's requests in count as well as in time. */
    private static final long MAX_REQUESTS_PER_CONNECTION = 50_000_000;
    private static final int OK = 200;

    @Override
    public String name() {
        return "Java (one thread per connection)";
    }

    @Override
    public LoadResult run(URI app, Workload workload, Traffic traffic, Duration warmup, Duration measured)
            throws Exception {
        List<HttpConnection> open = new ArrayList<>();
        List<String> cookies = traffic.cookies();
        try {
            for (int c = 0; c < traffic.connections(); c++) {
                open.add(new HttpConnection(app));
            }
            LongAdder errors = new LongAdder();
            Measurement measurement = new TimedLoop(warmup, measured, MAX_REQUESTS_PER_CONNECTION).run(
                    traffic.connections(), (c, i) -> {
                        String cookie = cookies.get(ThreadLocalRandom.current().nextInt(cookies.size()));
                        if (open.get(c).get(workload.path(i + 1), cookie).status() != OK) {
                            errors.increment();
                        }
                    });
            return new LoadResult(measurement.operations(), errors.sum(), measurement.seconds(),
                    measurement.p50Millis(), measurement.p99Millis(),
                    measurement.warmupOperations() + measurement.operations());
        } finally {
            for (HttpConnection connection : open) {
                connection.close();
            }
        }
    }

    /**
     * Creates {@code sessions} sessions (a request without cookie each) over {@code connections} connections and
     * returns their cookies.
     */
    public static List<String> createSessions(URI app, int sessions, int connections, Duration timeLimit)
            throws Exception {
        List<HttpConnection> open = new ArrayList<>();
        List<String> cookies = Collections.synchronizedList(new ArrayList<>());
        try {
            for (int c = 0; c < connections; c++) {
                open.add(new HttpConnection(app));
            }
            int perConnection = (sessions + connections - 1) / connections;
            new TimedLoop(Duration.ZERO, timeLimit, perConnection).run(Math.min(connections, sessions), (c, i) -> {
                if (i * connections + c < sessions) {
                    cookies.add(createSession(open.get(c)));
                }
            });
            if (cookies.size() < sessions) {
                throw new IllegalStateException("Only " + cookies.size() + " of " + sessions
                        + " sessions were created within " + timeLimit);
            }
            return List.copyOf(cookies);
        } finally {
            for (HttpConnection connection : open) {
                connection.close();
            }
        }
    }

    /**
     * Reads each of {@code cookies}' sessions once, over {@code connections} connections, and returns how many
     * reads did not answer 200 (a session gone answers 409).
     */
    public static long readEach(URI app, List<String> cookies, int connections, Duration timeLimit) throws Exception {
        List<HttpConnection> open = new ArrayList<>();
        LongAdder answered = new LongAdder();
        LongAdder failed = new LongAdder();
        try {
            for (int c = 0; c < connections; c++) {
                open.add(new HttpConnection(app));
            }
            int perConnection = (cookies.size() + connections - 1) / connections;
            new TimedLoop(Duration.ZERO, timeLimit, perConnection).run(connections, (c, i) -> {
                long index = i * connections + c;
                if (index < cookies.size()) {
                    if (open.get(c).get("read", cookies.get((int) index)).status() != OK) {
                        failed.increment();
                    }
                    answered.increment();
                }
            });
            if (answered.sum() < cookies.size()) {
                throw new IllegalStateException("Only " + answered.sum() + " of " + cookies.size()
                        + " sessions were read within " + timeLimit);
            }
            return failed.sum();
        } finally {
            for (HttpConnection connection : open) {
                connection.close();
            }
        }
    }

    private static String createSession(HttpConnection connection) throws IOException {
        HttpConnection.Answer answer = connection.get("init", null);
        if (answer.status() != OK || answer.cookie() == null) {
            throw new IllegalStateException("init answered " + answer.status() + " without a session cookie");
        }
        return answer.cookie();
    }
}
