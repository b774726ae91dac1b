package io.hbasesessions.shiro;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import org.apache.shiro.config.Ini;
import org.apache.shiro.ini.IniSecurityManagerFactory;

/**
 * The module's copyable {@code docs/shiro.ini}, pointed at the test's HBase and tables, built as Shiro builds a
 * user's: the DAO is an ini bean. Shiro's web environment uses the same factory, and destroys its beans when the
 * application stops.
 */
final class ShiroIni {

    static final String KEY_SCOPE = "/shiro-test";
    private static final Path EXAMPLE = Path.of("docs", "shiro.ini");

    private ShiroIni() {
    }

    /** The example's text, for {@code keyScope} on the test's HBase and tables. */
    static String exampleText(EmbeddedHBase hbase, TestNamespace namespace, String keyScope) throws IOException {
        String text = Files.readString(EXAMPLE);
        text = replaceLine(text, "hbaseSessionDAO.stateKeyFile = ", stateKeys().toString());
        return replaceLine(replaceLine(text, "hbaseSessionDAO.zookeeperQuorum = ",
                hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort()), "hbaseSessionDAO.keyScope = ", keyScope + "\n"
                + "hbaseSessionDAO.table = " + namespace.table("sessions") + "\n"
                + "hbaseSessionDAO.indexTable = " + namespace.table("user_sessions") + "\n"
                + "hbaseSessionDAO.regions = 1");
    }

    /** The key file the example names, here: one key, as the example's openssl command makes it. */
    private static Path stateKeys() throws IOException {
        Path keys = Path.of("target", "shiro-ini", "state-keys").toAbsolutePath();
        if (!Files.exists(keys)) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            Files.createDirectories(keys.getParent());
            Files.writeString(keys, Base64.getEncoder().encodeToString(key) + "\n");
        }
        return keys;
    }

    static Ini example(EmbeddedHBase hbase, TestNamespace namespace) throws IOException {
        Ini ini = new Ini();
        ini.load(exampleText(hbase, namespace, KEY_SCOPE));
        return ini;
    }

    private static String replaceLine(String text, String start, String value) {
        int from = text.indexOf("\n" + start) + 1;
        if (from == 0) {
            throw new IllegalStateException("docs/shiro.ini has no line starting with '" + start + "'");
        }
        return text.substring(0, from) + start + value + text.substring(text.indexOf('\n', from));
    }

    @SuppressWarnings("deprecation")
    static IniSecurityManagerFactory factory(Ini ini) {
        IniSecurityManagerFactory factory = new IniSecurityManagerFactory(ini);
        factory.getInstance();
        return factory;
    }

    @SuppressWarnings("deprecation")
    static HBaseSessionDAO dao(IniSecurityManagerFactory factory) {
        return (HBaseSessionDAO) factory.getBeans().get("hbaseSessionDAO");
    }
}
