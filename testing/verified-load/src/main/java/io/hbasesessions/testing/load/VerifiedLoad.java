package io.hbasesessions.testing.load;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bounded load over several nodes of one webapp (one Tomcat and one Jetty, say), whose every write
 * is checked. Each session holds a counter ({@link SessionEndpoints}). Requests go out at a fixed total
 * rate whatever the answers do (an open load, as independent users send them): each to the next session
 * in turn that has no request in flight (a session's requests follow one another, as one browser's do),
 * and each request of a session to the next node in turn (sessions start on different nodes, so that the
 * sessions in one phase of the round do not all go to one node). A write adds one to the counter; the value its
 * 2xx answer shows is then acknowledged. A write without an answer may or may not have been stored, so
 * a session's counter must end between its last acknowledged value and the number of writes sent to it.
 * {@code clients} threads create the sessions and read them back; the load itself is sent asynchronously.
 *
 * <pre>{@code
 * VerifiedLoad load = VerifiedLoad.builder(List.of(tomcat, jetty), SessionEndpoints.TEST_WEBAPP).sessions(300).build();
 * load.createSessions();
 * load.start();
 * load.mark("kill");  cluster.killRegionServer(server);  ...
 * LoadRecord record = load.stop();
 * Verification verification = load.verify(5, Duration.ofSeconds(1));
 * }</pre>
 */
public final class VerifiedLoad {

    private static final Pattern SESSION_COOKIE = Pattern.compile("(?i)^\\s*JSESSIONID=([^;]*)");
    private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    private static final int MAX_VIOLATIONS_KEPT = 20;
    private static final int CREATE_ATTEMPTS = 5;
    private static final long CREATE_PAUSE_MILLIS = 500;

    private final List<URI> apps;
    private final SessionEndpoints endpoints;
    private final int clients;
    private final double requestsPerSecond;
    private final double writeShare;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final List<TrackedSession> sessions = new ArrayList<>();
    private final List<LoadRecord.Mark> marks = new CopyOnWriteArrayList<>();
    private final List<LoadRecord.Sample> samples = new CopyOnWriteArrayList<>();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong acknowledgedWrites = new AtomicLong();
    private final AtomicLong writesSeenLost = new AtomicLong();
    private final AtomicLong staleReads = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean running;
    private long startNanos;

    private VerifiedLoad(Builder builder) {
        apps = List.copyOf(builder.apps);
        endpoints = builder.endpoints;
        clients = builder.clients;
        requestsPerSecond = builder.requestsPerSecond;
        writeShare = builder.writeShare;
        requestTimeout = builder.requestTimeout;
        for (int i = 0; i < builder.sessions; i++) {
            sessions.add(new TrackedSession(i));
        }
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(requestTimeout).build();
    }

    /** A load on {@code apps}, each the root URI of the webapp on one node (ending with {@code /}). */
    public static Builder builder(List<URI> apps, SessionEndpoints endpoints) {
        return new Builder(apps, endpoints);
    }

    /**
     * Creates every session, the sessions in turn on each node, by {@code clients} threads. A create
     * that fails is tried again, up to {@value #CREATE_ATTEMPTS} times {@value #CREATE_PAUSE_MILLIS} ms
     * apart: the first requests of a node that just started may outlast a short store bound while its
     * HBase client locates the regions, which is not what a load run measures.
     *
     * @throws IllegalStateException if a session could not be created: no 2xx with a cookie and a counter of 1
     */
    public void createSessions() throws InterruptedException {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        runOnClients(client -> {
            for (TrackedSession session : owned(client)) {
                String failure = null;
                for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
                    failure = create(session);
                    if (failure == null) {
                        break;
                    }
                    Thread.sleep(CREATE_PAUSE_MILLIS);
                }
                if (failure != null) {
                    failures.add(failure);
                }
            }
        });
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " of " + sessions.size() + " sessions were not created: "
                    + failures.subList(0, Math.min(5, failures.size())));
        }
    }

    /** Creates the session; returns what went wrong, or null. */
    private String create(TrackedSession session) throws InterruptedException {
        session.cookie = null;
        Exchange created = send(session, session.number % apps.size(), endpoints.create());
        OptionalInt counter = created.succeeded() ? endpoints.counterIn(created.body) : OptionalInt.empty();
        if (session.cookie == null || counter.isEmpty() || counter.getAsInt() != 1) {
            return "session " + session.number + ": create answered " + created.status + " " + created.body.strip();
        }
        session.acknowledged = 1;
        session.acknowledgedNanos = System.nanoTime();
        session.attempted = 1;
        return null;
    }

    /**
     * The cookie of each session, by its number ({@link Outcome#session()}), as the node that answered it last set
     * it (a route suffix included); call it when no request runs (before {@link #start}, after {@link #stop}).
     */
    public List<String> sessionCookies() {
        return sessions.stream().map(session -> session.cookie).toList();
    }

    /** Starts the client threads and the machine sampler; returns at once. */
    public synchronized void start() {
        if (running) {
            throw new IllegalStateException("The load runs already");
        }
        running = true;
        startNanos = System.nanoTime();
        mark("start");
        threads.add(startThread("verified-load-dispatcher", this::dispatch));
        threads.add(startThread("verified-load-sampler", this::sampleMachine));
    }

    /** Notes {@code event} now: the timeline and the figures are measured from such marks. */
    public void mark(String event) {
        marks.add(new LoadRecord.Mark(event, System.nanoTime()));
    }

    /** Stops sending, waits for the answers in flight (each within the request timeout), and returns what it saw. */
    public synchronized LoadRecord stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join();
        }
        threads.clear();
        long giveUp = System.nanoTime() + requestTimeout.toNanos() * 2;
        while (inFlight.get() > 0 && System.nanoTime() < giveUp) {
            Thread.sleep(10);
        }
        mark("stop");
        List<Outcome> sorted = new ArrayList<>(outcomes);
        outcomes.clear();
        sorted.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return new LoadRecord(startNanos, sorted, List.copyOf(marks), List.copyOf(samples),
                acknowledgedWrites.get(), writesSeenLost.get(), staleReads.get(), List.copyOf(violations));
    }

    /**
     * Reads every session on every node: its counter must be at least the last acknowledged value and
     * at most the writes sent. A read that shows less, or fails, is tried again up to {@code attempts}
     * times, {@code pause} apart (a replica catching up, a region still opening).
     */
    public Verification verify(int attempts, Duration pause) throws InterruptedException {
        List<String> lost = Collections.synchronizedList(new ArrayList<>());
        List<String> unreadable = Collections.synchronizedList(new ArrayList<>());
        AtomicLong staleRetried = new AtomicLong();
        runOnClients(client -> {
            for (TrackedSession session : owned(client)) {
                List<String> lostOn = new ArrayList<>();
                List<String> unreadableOn = new ArrayList<>();
                for (int node = 0; node < apps.size(); node++) {
                    verify(session, node, attempts, pause, lostOn, unreadableOn, staleRetried);
                }
                if (!lostOn.isEmpty()) {
                    lost.add(describe(session) + ": " + String.join("; ", lostOn));
                }
                if (!unreadableOn.isEmpty()) {
                    unreadable.add(describe(session) + ": " + String.join("; ", unreadableOn));
                }
            }
        });
        return new Verification(sessions.size(), apps.size(), acknowledgedWrites.get(), List.copyOf(lost),
                List.copyOf(unreadable), staleRetried.get());
    }

    private void verify(TrackedSession session, int node, int attempts, Duration pause, List<String> lost,
            List<String> unreadable, AtomicLong staleRetried) throws InterruptedException {
        String last = "no read";
        boolean answered = false;
        boolean sawOlder = false;
        for (int attempt = 0; attempt < attempts; attempt++) {
            if (attempt > 0) {
                Thread.sleep(pause.toMillis());
            }
            Exchange read = send(session, node, endpoints.read());
            if (!read.succeeded()) {
                last = "answered " + read.status;
                continue;
            }
            answered = true;
            int counter = endpoints.counterIn(read.body).orElse(0);
            if (counter >= session.acknowledged && counter <= session.attempted) {
                if (sawOlder) {
                    staleRetried.incrementAndGet();
                }
                return;
            }
            sawOlder |= counter < session.acknowledged;
            last = "counter " + counter + " outside [" + session.acknowledged + ", " + session.attempted + "]";
        }
        (answered ? lost : unreadable).add("node " + node + " " + last);
    }

    /** The session, and when its last acknowledged write was answered, in seconds from the load's start. */
    private String describe(TrackedSession session) {
        return String.format(Locale.ROOT, "session %d (last write acknowledged at %.1f s)", session.number,
                (session.acknowledgedNanos - startNanos) / 1e9);
    }

    private void dispatch() {
        long interval = (long) (1e9 / requestsPerSecond);
        Random random = new Random(42);
        long next = System.nanoTime();
        int turn = 0;
        while (running) {
            long now = System.nanoTime();
            if (next > now) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            next = now - next > interval ? now + interval : next + interval;
            for (int tried = 0; tried < sessions.size(); tried++) {
                TrackedSession session = sessions.get(turn++ % sessions.size());
                if (session.inFlight.compareAndSet(false, true)) {
                    sendAsync(session, random.nextDouble() < writeShare);
                    break;
                }
            }
        }
    }

    /** One request of the load; its answer is checked and recorded when it arrives. */
    private void sendAsync(TrackedSession session, boolean write) {
        int node = (session.number + session.requests++) % apps.size();
        if (write) {
            session.attempted++;
        }
        inFlight.incrementAndGet();
        long started = System.nanoTime();
        http.sendAsync(request(session, node, write ? endpoints.write() : endpoints.read()),
                HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> {
                    Exchange exchange = exchange(session, started, response, failure);
                    outcomes.add(new Outcome(started, exchange.latencyNanos, node, session.number, write,
                            exchange.status));
                    if (exchange.succeeded()) {
                        check(session, write, endpoints.counterIn(exchange.body).orElse(0), node);
                    }
                    session.inFlight.set(false);
                    inFlight.decrementAndGet();
                });
    }

    /** What a 2xx answer says about the session's acknowledged writes. */
    private void check(TrackedSession session, boolean write, int counter, int node) {
        if (!write) {
            if (counter < session.acknowledged) {
                staleReads.incrementAndGet();
            }
            return;
        }
        if (counter <= session.acknowledged) {
            writesSeenLost.addAndGet(session.acknowledged - counter + 1);
            violation(describe(session) + ": a write on node " + node + " answered counter " + counter
                    + " after a write was acknowledged with " + session.acknowledged);
        }
        session.acknowledged = counter;
        session.acknowledgedNanos = System.nanoTime();
        acknowledgedWrites.incrementAndGet();
    }

    private void violation(String what) {
        if (violations.size() < MAX_VIOLATIONS_KEPT) {
            violations.add(what);
        }
    }

    private void sampleMachine() {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        while (running) {
            samples.add(new LoadRecord.Sample(System.nanoTime(), os.getCpuLoad(), os.getSystemLoadAverage()));
            LockSupport.parkNanos(SAMPLE_INTERVAL.toNanos());
        }
    }

    /** A request sent and answered on the calling thread (creating and reading back). */
    private Exchange send(TrackedSession session, int node, String path) throws InterruptedException {
        long started = System.nanoTime();
        try {
            return exchange(session, started, http.send(request(session, node, path), HttpResponse.BodyHandlers.ofString()),
                    null);
        } catch (IOException e) {
            return exchange(session, started, null, e);
        }
    }

    private HttpRequest request(TrackedSession session, int node, String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(apps.get(node).resolve(path)).timeout(requestTimeout).GET();
        if (session.cookie != null) {
            request.header("Cookie", "JSESSIONID=" + session.cookie);
        }
        return request.build();
    }

    private static Exchange exchange(TrackedSession session, long started, HttpResponse<String> response, Throwable failure) {
        long latency = System.nanoTime() - started;
        if (response != null) {
            response.headers().allValues("Set-Cookie").forEach(session::remember);
            return new Exchange(latency, response.statusCode(), response.body());
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return new Exchange(latency, cause instanceof HttpTimeoutException ? Outcome.NO_ANSWER : Outcome.CONNECTION_FAILED, "");
    }

    private List<TrackedSession> owned(int client) {
        List<TrackedSession> owned = new ArrayList<>();
        for (int i = client; i < sessions.size(); i += clients) {
            owned.add(sessions.get(i));
        }
        return owned;
    }

    @FunctionalInterface
    private interface ClientWork {
        void run(int client) throws InterruptedException;
    }

    private void runOnClients(ClientWork work) throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        List<InterruptedException> interrupted = Collections.synchronizedList(new ArrayList<>());
        for (int client = 0; client < clients; client++) {
            int number = client;
            workers.add(startThread("verified-load-" + client, () -> {
                try {
                    work.run(number);
                } catch (InterruptedException e) {
                    interrupted.add(e);
                }
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        if (!interrupted.isEmpty()) {
            throw interrupted.get(0);
        }
    }

    private static Thread startThread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private record Exchange(long latencyNanos, int status, String body) {
        boolean succeeded() {
            return status >= 200 && status < 300;
        }
    }

    /**
     * A session of the load: its cookie, the counter its last acknowledged write showed, and the writes
     * sent to it. One request of it runs at a time: whoever sets {@code inFlight} owns the other fields
     * until it clears it (its answer's handler), which publishes them to the next owner.
     */
    private static final class TrackedSession {
        final int number;
        final AtomicBoolean inFlight = new AtomicBoolean();
        String cookie;
        int acknowledged;
        long acknowledgedNanos;
        int attempted;
        int requests;

        TrackedSession(int number) {
            this.number = number;
        }

        /** As a browser does: the cookie a node sets replaces the one sent (a route suffix may change). */
        void remember(String setCookie) {
            Matcher cookie = SESSION_COOKIE.matcher(setCookie);
            if (cookie.find()) {
                this.cookie = cookie.group(1).isEmpty() ? null : cookie.group(1);
            }
        }
    }

    public static final class Builder {
        private final List<URI> apps;
        private final SessionEndpoints endpoints;
        private int sessions = 300;
        private int clients = 8;
        private double requestsPerSecond = 100;
        private double writeShare = 0.3;
        private Duration requestTimeout = Duration.ofSeconds(30);

        private Builder(List<URI> apps, SessionEndpoints endpoints) {
            if (apps.isEmpty() || apps.stream().anyMatch(app -> !app.getPath().endsWith("/"))) {
                throw new IllegalArgumentException("Give the webapp's root on each node, ending with /: " + apps);
            }
            this.apps = apps;
            this.endpoints = Objects.requireNonNull(endpoints);
        }

        /** How many sessions the load works on (default 300). */
        public Builder sessions(int sessions) {
            this.sessions = sessions;
            return this;
        }

        /** Threads that create the sessions and read them back, each its share of them (default 8). */
        public Builder clients(int clients) {
            this.clients = clients;
            return this;
        }

        /** The rate the load sends requests at, whatever the answers do (default 100). */
        public Builder requestsPerSecond(double requestsPerSecond) {
            this.requestsPerSecond = requestsPerSecond;
            return this;
        }

        /** The share of requests that write (default 0.3); the others only read. */
        public Builder writeShare(double writeShare) {
            this.writeShare = writeShare;
            return this;
        }

        /** After this long without an answer a request counts as {@link Outcome#NO_ANSWER} (default 30 s). */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        public VerifiedLoad build() {
            if (sessions < clients) {
                throw new IllegalArgumentException("Give every client at least one session: " + sessions + " sessions, "
                        + clients + " clients");
            }
            return new VerifiedLoad(this);
        }
    }
}
