package io.hbasesessions.benchmarks.http;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk 4 with a Lua script that gives every request the cookie of a session picked at random from the
 * {@link Traffic}'s, read from a file by each wrk thread (a thread's Lua state is its own), and writes on every
 * {@code writeEvery}-th request of a thread. Written in C, it leaves the server more of the two cores than the
 * Java generator does.
 */
public final class WrkLoadGenerator implements LoadGenerator {

    private static final String SCRIPT = """
            -- Each request carries the cookie of a random session of the file's; every %2$d-th of a thread writes.
            local threads = 0
            function setup(thread)
              threads = threads + 1
              thread:set("number", threads)
            end
            local cookies = {}
            local count = 0
            function init(args)
              for line in io.lines("%3$s") do cookies[#cookies + 1] = line end
              math.randomseed(os.time() * 1000 + number)
            end
            function request()
              count = count + 1
              local path = (count %% %2$d == 0) and "write" or "read"
              return wrk.format("GET", "%1$s" .. path, { ["Cookie"] = cookies[math.random(#cookies)] })
            end
            """;
    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|99)(?:\\.000)?%\\s+([\\d.]+)(us|ms|s|m)\\s*$",
            Pattern.MULTILINE);
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    private final Path workDirectory;

    public WrkLoadGenerator(Path workDirectory) {
        this.workDirectory = workDirectory;
    }

    /** Whether {@code wrk} can be run from the PATH. */
    public static boolean isInstalled() {
        try {
            Process probe = new ProcessBuilder("wrk", "--version").redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String name() {
        return "wrk 4 + Lua, a random session's cookie per request";
    }

    @Override
    public LoadResult run(URI app, Workload workload, Traffic traffic, Duration warmup, Duration measured)
            throws Exception {
        Files.createDirectories(workDirectory);
        Path cookies = Files.createTempFile(workDirectory, "cookies-", ".txt");
        Files.write(cookies, traffic.cookies());
        Path script = Files.createTempFile(workDirectory, "wrk-" + workload.name().toLowerCase(Locale.ROOT) + "-", ".lua");
        Files.writeString(script, String.format(Locale.ROOT, SCRIPT, app.getPath(), workload.writeEvery(), cookies));
        // wrk cannot leave out a warm-up, so the warm-up is a run of its own.
        LoadResult warm = parse(wrk(app, script, traffic, warmup), 0);
        return parse(wrk(app, script, traffic, measured), warm.requests());
    }

    private String wrk(URI app, Path script, Traffic traffic, Duration duration) throws Exception {
        List<String> command = new ArrayList<>(List.of("wrk", "--latency", "--timeout", "10s",
                "-t" + traffic.generatorThreads(), "-c" + traffic.connections(),
                "-d" + Math.max(1, duration.toSeconds()) + "s",
                "-s", script.toString(), app.resolve("/").toString()));
        Process wrk = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!wrk.waitFor(duration.toSeconds() + 60, TimeUnit.SECONDS) || wrk.exitValue() != 0) {
            wrk.destroyForcibly();
            throw new IllegalStateException("wrk failed: " + command + "\n" + output);
        }
        return output;
    }

    static LoadResult parse(String output, long requestsSentBefore) {
        Matcher requests = find(REQUESTS, output);
        double p50 = 0;
        double p99 = 0;
        Matcher percentile = PERCENTILE.matcher(output);
        while (percentile.find()) {
            double millis = millis(Double.parseDouble(percentile.group(2)), percentile.group(3));
            if (percentile.group(1).equals("50")) {
                p50 = millis;
            } else {
                p99 = millis;
            }
        }
        long errors = 0;
        Matcher non2xx = NON_2XX.matcher(output);
        if (non2xx.find()) {
            errors += Long.parseLong(non2xx.group(1));
        }
        Matcher socketErrors = SOCKET_ERRORS.matcher(output);
        if (socketErrors.find()) {
            for (int group = 1; group <= 4; group++) {
                errors += Long.parseLong(socketErrors.group(group));
            }
        }
        double seconds = millis(Double.parseDouble(requests.group(2)), requests.group(3)) / 1000;
        long count = Long.parseLong(requests.group(1));
        return new LoadResult(count, errors, seconds, p50, p99, requestsSentBefore + count);
    }

    private static Matcher find(Pattern pattern, String output) {
        Matcher matcher = pattern.matcher(output);
        if (!matcher.find()) {
            throw new IllegalStateException("Unexpected wrk output (no '" + pattern + "'):\n" + output);
        }
        return matcher;
    }

    private static double millis(double value, String unit) {
        return switch (unit) {
            case "us" -> value / 1000;
            case "ms" -> value;
            case "s" -> value * 1000;
            case "m" -> value * 60_000;
            default -> throw new IllegalArgumentException("Unknown wrk time unit " + unit);
        };
    }
}
