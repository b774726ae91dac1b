package io.hbasesessions.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * {@code --pin-backend-cpus}: the stores' backends on some CPUs, everything else the run starts on the
 * others, as production runs HBase on machines of its own. Here the backends are the HBase JVMs the suite
 * launches (run.sh pins Redis and PostgreSQL the same way); the others are this JVM, which pins itself,
 * so the Java load generator, the store benchmark's client and every child it starts (the nodes, wrk)
 * run on them too: children inherit the affinity of the thread that starts them.
 */
public record CpuPinning(SortedSet<Integer> backendCpus, SortedSet<Integer> otherCpus) {

    /** What {@code taskset -pc} prints: {@code pid 4037's current affinity list: 0,1}. */
    private static final String AFFINITY_LIST = "current affinity list: ";

    /**
     * {@code backendList} for the backends and what remains of {@code available} (the CPUs this JVM may
     * use) for everything else; refuses a list that leaves nothing.
     */
    static CpuPinning split(String backendList, SortedSet<Integer> available) {
        SortedSet<Integer> backend = parse(backendList);
        SortedSet<Integer> others = new TreeSet<>(available);
        others.removeAll(backend);
        if (others.isEmpty()) {
            throw new IllegalStateException("--pin-backend-cpus " + backendList + " leaves no CPU for the nodes and "
                    + "the load generator: this JVM may use " + format(available) + "; give the backends fewer");
        }
        return new CpuPinning(backend, others);
    }

    /**
     * Splits the CPUs this JVM may use (its {@code taskset -pc}) and moves all its threads onto the
     * others, the backends' CPUs being checked by starting {@code taskset} on them once.
     */
    public static CpuPinning pinThisJvm(String backendList) {
        String pid = Long.toString(ProcessHandle.current().pid());
        taskset("-c", backendList, "true");
        String affinity = taskset("-pc", pid);
        CpuPinning pinning = split(backendList, parse(affinity.substring(affinity.indexOf(AFFINITY_LIST)
                + AFFINITY_LIST.length()).strip()));
        taskset("-a", "-pc", pinning.otherCpuList(), pid);
        return pinning;
    }

    /** The backends' CPUs as a taskset list, for the HBase launchers. */
    public String backendCpuList() {
        return format(backendCpus);
    }

    public String otherCpuList() {
        return format(otherCpus);
    }

    /** The backends' and the others' CPUs: this JVM itself may be on fewer, once pinned or started under taskset. */
    public int cpuCount() {
        return backendCpus.size() + otherCpus.size();
    }

    /** For the report: {@code backend 0, nodes and load 1}. */
    @Override
    public String toString() {
        return "backend " + backendCpuList() + ", nodes and load " + otherCpuList();
    }

    /** A taskset CPU list ({@code 0}, {@code 0-2,5}) as CPU numbers. */
    static SortedSet<Integer> parse(String list) {
        if (!list.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
            throw new IllegalArgumentException("A CPU list is like 0 or 0-1,4 (as taskset -c takes it), not " + list);
        }
        SortedSet<Integer> cpus = new TreeSet<>();
        for (String range : list.split(",")) {
            String[] bounds = range.split("-");
            int first = Integer.parseInt(bounds[0]);
            int last = Integer.parseInt(bounds[bounds.length - 1]);
            if (last < first) {
                throw new IllegalArgumentException("The CPU range " + range + " of " + list + " runs backwards");
            }
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    /** CPU numbers as a taskset list, consecutive ones as ranges. */
    static String format(SortedSet<Integer> cpus) {
        List<String> ranges = new ArrayList<>();
        int first = -1;
        int last = -2;
        for (int cpu : cpus) {
            if (cpu != last + 1) {
                if (first >= 0) {
                    ranges.add(range(first, last));
                }
                first = cpu;
            }
            last = cpu;
        }
        if (first >= 0) {
            ranges.add(range(first, last));
        }
        return String.join(",", ranges);
    }

    private static String range(int first, int last) {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }

    private static String taskset(String... arguments) {
        List<String> command = new ArrayList<>(List.of("taskset"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("--pin-backend-cpus: " + String.join(" ", command) + " failed: "
                        + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("--pin-backend-cpus needs taskset (util-linux): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        }
    }
}
