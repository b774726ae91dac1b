package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #11 item 4, on Jetty 12.0 and 12.1 (the module's two test runs): a FORM login is stored as
 * name, roles and authentication type; the password Jetty 12.0 keeps in its
 * {@code SessionAuthentication} reaches no cell, in any encoding a serializer could write it in.
 */
@ExtendWith(HBaseExtension.class)
class NoSecretsAtRestTest {

    @Test
    void aLoginStoresNoPassword(EmbeddedHBase hbase, TestNamespace namespace, Configuration client) {
        try (JettyNode node = JettyNode.start("node0", TestStores.settings(hbase, namespace))) {
            Browser browser = new Browser();
            browser.get(node.servlet(), "op=login&user=" + JettyNode.USER + "&password=" + JettyNode.PASSWORD).expect(200);
            browser.get(node.servlet(), "op=put&name=cart&value=book").expect(200);
            assertEquals(JettyNode.USER, browser.get(node.servlet(), "op=whoami").expect(200).value("user"));
        }
        assertTrue(namespace.storesBytes(client, JettyNode.USER.getBytes(StandardCharsets.UTF_8)), "the login is stored");
        // All but the last character: Kryo marks the end of an ASCII string in its last byte's high bit.
        String password = JettyNode.PASSWORD.substring(0, JettyNode.PASSWORD.length() - 1);
        for (Charset encoding : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE)) {
            assertFalse(namespace.storesBytes(client, password.getBytes(encoding)),
                    "a cell holds the password in " + encoding);
        }
    }
}
