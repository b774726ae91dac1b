package io.hbasesessions.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The one HBase of a Maven build. The parent pom gives every test JVM the system property
 * {@value #DIRECTORY_PROPERTY}, a directory; the first test JVM that needs HBase starts a server there,
 * owned by the Maven process (it ends when Maven ends, see {@link ParentWatchdog}), and writes down
 * where it listens; every later test JVM of the same Maven run finds it there. One start instead of one
 * per test JVM (about 15 of them, each start and stop 10-15 s on 2 cores). Per-class namespaces keep the
 * tests apart, as they did within one JVM.
 *
 * <p>Outside Maven (an IDE), or when no Maven process is found among this JVM's ancestors, there is no
 * build HBase and {@link HBaseExtension} starts one for the JVM as before.
 */
final class BuildHBase {

    static final String DIRECTORY_PROPERTY = "hbasesessions.test.buildHBase";

    /** The class Maven's {@code mvn} script starts; the JVM running it is the build. */
    private static final String MAVEN_LAUNCHER = "org.codehaus.plexus.classworlds.launcher.Launcher";
    private static final String SERVER_FILE = "server.properties";
    private static final String DATA_PREFIX = "hbase-";
    /** A server shared by every module's tables: more regions than one module's. */
    private static final int HEAP_MEGABYTES = 768;
    /** Every module's tests wait for this one start: on a loaded machine it may take longer than one JVM's 90 s. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    private BuildHBase() {
    }

    /** The build's server, started by this call if no JVM of this Maven run has started it yet. */
    static Optional<EmbeddedHBase> findOrStart() {
        String directory = System.getProperty(DIRECTORY_PROPERTY, "");
        if (directory.isBlank()) {
            return Optional.empty();
        }
        return mavenProcess().map(maven -> findOrStart(Path.of(directory), maven));
    }

    private static Optional<ProcessHandle> mavenProcess() {
        Optional<ProcessHandle> ancestor = ProcessHandle.current().parent();
        while (ancestor.isPresent()) {
            boolean maven = ancestor.get().info().arguments()
                    .map(arguments -> Stream.of(arguments).anyMatch(MAVEN_LAUNCHER::equals)).orElse(false);
            if (maven) {
                return ancestor;
            }
            ancestor = ancestor.get().parent();
        }
        return Optional.empty();
    }

    /** Under a file lock: test JVMs of parallel modules may ask at once. */
    static EmbeddedHBase findOrStart(Path directory, ProcessHandle maven) {
        try {
            Files.createDirectories(directory);
            try (FileChannel channel = FileChannel.open(directory.resolve("lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock ignored = channel.lock()) {
                return runningFor(directory, maven).orElseGet(() -> start(directory, maven));
            }
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot share the build's HBase in " + directory + " (" + e
                    + "): make the directory writable, or run without -D" + DIRECTORY_PROPERTY, e);
        }
    }

    private static Optional<EmbeddedHBase> runningFor(Path directory, ProcessHandle maven) throws IOException {
        Path file = directory.resolve(SERVER_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties server = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            server.load(in);
        }
        EmbeddedHBase hbase = EmbeddedHBase.running(Path.of(server.getProperty("dataDirectory")),
                Integer.parseInt(server.getProperty("zookeeperPort")), Long.parseLong(server.getProperty("pid")));
        boolean ours = server.getProperty("owner").equals(ownerName(maven));
        return ours && hbase.isRunning() ? Optional.of(hbase) : Optional.empty();
    }

    /** In a directory of its own: a server of this build that ended (HBase aborts when starved of CPU) left its state. */
    private static EmbeddedHBase start(Path directory, ProcessHandle maven) {
        deleteDataOfEndedBuilds(directory);
        Path dataDirectory = directory.resolve(DATA_PREFIX + ownerName(maven) + "-" + System.currentTimeMillis());
        EmbeddedHBase hbase = EmbeddedHBase.builder().dataDirectory(dataDirectory).heapMegabytes(HEAP_MEGABYTES)
                .startTimeout(START_TIMEOUT).owner(maven.pid()).build().start();
        Properties server = new Properties();
        server.setProperty("owner", ownerName(maven));
        server.setProperty("dataDirectory", dataDirectory.toAbsolutePath().toString());
        server.setProperty("zookeeperPort", Integer.toString(hbase.zookeeperPort()));
        server.setProperty("pid", Long.toString(hbase.pid()));
        try {
            Path written = Files.createTempFile(directory, SERVER_FILE, ".tmp");
            try (OutputStream out = Files.newOutputStream(written)) {
                server.store(out, "The HBase of the Maven build " + maven.pid() + "; it ends with that process");
            }
            Files.move(written, directory.resolve(SERVER_FILE), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot write " + directory.resolve(SERVER_FILE) + " (" + e + ")", e);
        }
        return hbase;
    }

    /** A pid alone could be reused by a later process: with its start time it names one Maven run. */
    private static String ownerName(ProcessHandle maven) {
        return maven.pid() + "-" + maven.info().startInstant().map(start -> start.toEpochMilli()).orElse(0L);
    }

    /** Earlier builds' servers ended with their Maven process; their data is of no use. */
    private static void deleteDataOfEndedBuilds(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path data : entries.filter(path -> path.getFileName().toString().startsWith(DATA_PREFIX)).toList()) {
                if (!isOwnerAlive(data.getFileName().toString().substring(DATA_PREFIX.length()))) {
                    TestServers.deleteRecursively(data);
                }
            }
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot delete earlier builds' HBase data in " + directory + " (" + e
                    + ")", e);
        }
    }

    /** {@code dataName}: the owner's pid and start, then the server's start. */
    private static boolean isOwnerAlive(String dataName) {
        String[] fields = dataName.split("-");
        String owner = fields[0] + "-" + fields[1];
        return ProcessHandle.of(Long.parseLong(fields[0])).map(BuildHBase::ownerName).map(owner::equals).orElse(false);
    }
}
