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
 * wrk 4 with a Lua script that creates a session on each connection's first request and replays its
 * cookie. wrk's Lua state is per thread, so it runs one thread per connection: one session each.
 * Written in C, it leaves the server more of the two cores than the Java generator does.
 */
public final class WrkLoadGenerator implements LoadGenerator {

    private static final String SCRIPT = """
            -- One session per thread (and wrk runs one connection per thread): create it, then replay its cookie.
            local cookie = nil
            local count = 0
            request = function()
              if cookie == nil then
                return wrk.format("GET", "%1$sinit")
              end
              count = count + 1
              local path = (count %% %2$d == 0) and "write" or "read"
              return wrk.format("GET", "%1$s" .. path, { ["Cookie"] = cookie })
            end
            response = function(status, headers, body)
              if cookie == nil and headers["Set-Cookie"] ~= nil then
                cookie = string.match(headers["Set-Cookie"], "^[^;]+")
              end
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
        return "wrk 4 + Lua cookie replay (one thread per connection)";
    }

    @Override
    public LoadResult run(URI app, Workload workload, int connections, Duration warmup, Duration measured)
            throws Exception {
        Path script = workDirectory.resolve("wrk-" + workload.name().toLowerCase(Locale.ROOT) + ".lua");
        Files.createDirectories(workDirectory);
        Files.writeString(script, String.format(Locale.ROOT, SCRIPT, app.getPath(), workload.writeEvery()));
        // wrk cannot leave out a warm-up, so the warm-up is a run of its own.
        LoadResult warm = parse(wrk(app, script, connections, warmup), 0);
        return parse(wrk(app, script, connections, measured), warm.requests());
    }

    private String wrk(URI app, Path script, int connections, Duration duration) throws Exception {
        List<String> command = new ArrayList<>(List.of("wrk", "--latency", "--timeout", "10s",
                "-t" + connections, "-c" + connections, "-d" + Math.max(1, duration.toSeconds()) + "s",
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
