package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Measurement;
import io.hbasesessions.benchmarks.TimedLoop;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    public LoadResult run(URI app, Workload workload, int connections, Duration warmup, Duration measured)
            throws Exception {
        List<HttpConnection> open = new ArrayList<>();
        List<String> cookies = new ArrayList<>();
        try {
            for (int c = 0; c < connections; c++) {
                HttpConnection connection = new HttpConnection(app);
                open.add(connection);
                cookies.add(createSession(connection));
            }
            LongAdder errors = new LongAdder();
            Measurement measurement = new TimedLoop(warmup, measured, MAX_REQUESTS_PER_CONNECTION).run(connections,
                    (c, i) -> {
                        if (open.get(c).get(workload.path(i + 1), cookies.get(c)).status() != OK) {
                            errors.increment();
                        }
                    });
            return new LoadResult(measurement.operations(), errors.sum(), measurement.seconds(),
                    measurement.p50Millis(), measurement.p99Millis(),
                    connections + measurement.warmupOperations() + measurement.operations());
        } finally {
            for (HttpConnection connection : open) {
                connection.close();
            }
        }
    }

    /** Creates {@code sessions} sessions (a request without cookie each) over {@code connections} connections. */
    public static void createSessions(URI app, int sessions, int connections, Duration timeLimit) throws Exception {
        List<HttpConnection> open = new ArrayList<>();
        try {
            for (int c = 0; c < connections; c++) {
                open.add(new HttpConnection(app));
            }
            Measurement made = new TimedLoop(Duration.ZERO, timeLimit, sessions / connections).run(connections,
                    (c, i) -> createSession(open.get(c)));
            if (made.operations() < (long) sessions / connections * connections) {
                throw new IllegalStateException("Only " + made.operations() + " of " + sessions
                        + " sessions were created within " + timeLimit);
            }
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
