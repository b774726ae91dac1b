package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.apache.catalina.Manager;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #11 item 4, on Tomcat 10.1 and 11 (the module's two test runs): a login is stored as name,
 * roles and authentication type, never with its password, through the manager and through
 * {@code PersistentManager} with {@link HBaseStore}.
 */
@ExtendWith(HBaseExtension.class)
class NoSecretsAtRestTest {

    @TempDir
    Path directory;

    @Test
    void aLoginThroughTheManagerStoresNoPassword(EmbeddedHBase hbase, TestNamespace namespace, Configuration client) {
        logInAndCheck(() -> TestManagers.manager(hbase, namespace), false, namespace, client);
    }

    @Test
    void aLoginThroughPersistentManagerStoresNoPassword(EmbeddedHBase hbase, TestNamespace namespace,
            Configuration client) {
        logInAndCheck(() -> TestManagers.persistentManager(hbase, namespace), true, namespace, client);
    }

    private void logInAndCheck(Supplier<? extends Manager> managers, boolean storedOnStop, TestNamespace namespace,
            Configuration client) {
        String user = "bob";
        try (TomcatNode node = new TomcatNode("n", directory, managers).start()) {
            Browser browser = new Browser();
            browser.get(node.servlet(), "op=login&user=" + user + "&password=" + TestRealm.PASSWORD).expect(200);
            browser.get(node.servlet(), "op=put&name=cart&value=book").expect(200);
            assertEquals(user, browser.get(node.servlet(), "op=whoami").expect(200).value("user"));
            if (storedOnStop) {
                node.stop(); // PersistentManager stores its sessions when it stops
            }
        }
        assertTrue(namespace.storesBytes(client, "boo".getBytes(StandardCharsets.UTF_8)), "the session is stored");
        // All but the last character: Kryo marks the end of an ASCII string in its last byte's high bit.
        String password = TestRealm.PASSWORD.substring(0, TestRealm.PASSWORD.length() - 1);
        for (Charset encoding : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE)) {
            assertFalse(namespace.storesBytes(client, password.getBytes(encoding)),
                    "a cell holds the password in " + encoding);
        }
    }
}
