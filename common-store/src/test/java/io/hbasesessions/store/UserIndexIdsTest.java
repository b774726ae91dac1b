package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #32: a session system whose callers name a user's sessions by id (Spring Session's
 * {@code findByPrincipalName}) finds them through the user index, in its own key scope only, never another system's,
 * and with a key file the index keeps no id in the clear; the containers' stores still keep no id there. Several
 * {@code principalAttribute} names index the first that names a user.
 */
@ExtendWith(HBaseExtension.class)
class UserIndexIdsTest {

    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);
    private static final ClassLoader LOADER = UserIndexIdsTest.class.getClassLoader();
    private static final String PRINCIPAL_ATTRIBUTES = "principal, context";

    private static StoreSettings settings;
    private static SessionStore spring;
    private static SessionStore springOfBlog;
    private static SessionStore springWithKeys;
    private static SessionStore tomcat;
    private static HBaseInspector hbase;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace, Configuration configuration, @TempDir Path work)
            throws Exception {
        settings = TestStores.settings(server, namespace).set(Setting.PRINCIPAL_ATTRIBUTE, PRINCIPAL_ATTRIBUTES).build();
        spring = SessionStores.open(settings, new Webapp(LOADER, Container.SPRING_SESSION));
        springOfBlog = SessionStores.open(settings.toBuilder().set(Setting.KEY_SCOPE, "/blog").build(),
                new Webapp(LOADER, Container.SPRING_SESSION));
        Path keys = Files.write(work.resolve("keys"), List.of(StateSealTest.newKey()));
        springWithKeys = SessionStores.open(settings.toBuilder().set(Setting.KEY_SCOPE, "/keyed")
                .set(Setting.STATE_PROTECTION, StateProtection.HMAC).set(Setting.STATE_KEY_FILE, keys).build(),
                new Webapp(LOADER, Container.SPRING_SESSION));
        tomcat = SessionStores.open(settings, new Webapp(LOADER, Container.TOMCAT));
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    static void close() throws Exception {
        List.of(spring, springOfBlog, springWithKeys, tomcat).forEach(SessionStore::close);
        hbase.close();
    }

    private static String newUser() {
        return "user-" + TestStores.newId();
    }

    private static StoredSession create(SessionStore store, Map<String, ?> attributes) {
        return TestStores.create(store, Instant.now(), HALF_AN_HOUR, attributes);
    }

    @Test
    void aSpringSessionStoreFindsTheIdsOfItsUsersSessionsInItsOwnKeyScope() {
        String user = newUser();
        String older = create(spring, Map.of("principal", user)).record().id();
        String newer = create(spring, Map.of("principal", user)).record().id();
        create(springOfBlog, Map.of("principal", user));
        create(tomcat, Map.of("principal", user));

        assertEquals(List.of(newer, older), spring.findIdsByUser(user), "newest first, this scope's only");
        assertEquals(4, spring.findByUser(user).size(), "the index holds all four, in both scopes and systems");
        assertEquals(List.of(), tomcat.findIdsByUser(user), "a container's store finds no ids");
        assertEquals(List.of(), spring.findIdsByUser(newUser()));
        assertEquals(List.of(), spring.findIdsByUser(null));
        String overlong = "x".repeat(40_000);
        assertEquals(List.of(), spring.findIdsByUser(overlong), "a name longer than any indexed one finds nothing");
        assertEquals(List.of(), spring.findByUser(overlong));
        assertEquals(0, spring.revokeAll(overlong));
    }

    @Test
    void aNewIdIsFoundInsteadOfTheOldOneAndADeletedSessionIsNotFound() {
        String user = newUser();
        StoredSession session = create(spring, Map.of("principal", user));
        String oldId = session.record().id();
        String newId = TestStores.newId();
        assertEquals(SaveResult.WRITTEN, spring.changeId(session, session.record(), newId));
        assertEquals(List.of(newId), spring.findIdsByUser(user));

        assertTrue(spring.delete(newId));
        assertEquals(List.of(), spring.findIdsByUser(user));
        assertFalse(spring.load(oldId).isPresent());
    }

    @Test
    void theContainersIndexEntriesKeepNoIdAndWithAKeyFileNoIdIsInTheClear() {
        String user = newUser();
        String containers = create(tomcat, Map.of("principal", user)).record().id();
        String keyed = create(springWithKeys, Map.of("principal", user)).record().id();

        assertEquals(List.of(keyed), springWithKeys.findIdsByUser(user));
        List<byte[]> values = indexValuesOf(user);
        assertEquals(2, values.size());
        for (byte[] value : values) {
            for (String id : List.of(containers, keyed)) {
                assertEquals(-1, Bytes.indexOf(value, id.getBytes(StandardCharsets.UTF_8)), "an id in the clear");
            }
        }
        assertTrue(values.stream().anyMatch(value -> value.length == 0), "the container's entry holds nothing");
    }

    @Test
    void theFirstPrincipalAttributeThatNamesAUserIsIndexed() {
        String fromContext = newUser();
        String explicit = newUser();
        StoredSession session = create(spring, Map.of("context", fromContext));
        assertEquals(List.of(session.record().id()), spring.findIdsByUser(fromContext));

        session.attributes().put("principal", explicit);
        assertEquals(SaveResult.WRITTEN, spring.save(session, session.record()));
        assertEquals(List.of(session.record().id()), spring.findIdsByUser(explicit));
        assertEquals(List.of(), spring.findIdsByUser(fromContext));

        session.attributes().remove("principal");
        assertEquals(SaveResult.WRITTEN, spring.save(session, session.record()));
        assertEquals(List.of(session.record().id()), spring.findIdsByUser(fromContext), "back to the next name");
    }

    /** The values of the index cells of this user's rows, read from HBase. */
    private static List<byte[]> indexValuesOf(String user) {
        byte[] name = (user + "|").getBytes(StandardCharsets.UTF_8);
        return hbase.scan(settings.get(Setting.INDEX_TABLE)).stream()
                .filter(row -> Bytes.indexOf(row.getRow(), name) == 2)
                .flatMap(row -> row.getFamilyMap(HBaseSessionRows.FAMILY).values().stream())
                .toList();
    }
}
