package io.hbasesessions.shiro;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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

    static Ini example(EmbeddedHBase hbase, TestNamespace namespace) throws IOException {
        Ini ini = new Ini();
        ini.load(Files.readString(EXAMPLE));
        Map<String, String> main = ini.getSection("main");
        main.put("hbaseSessionDAO.zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        main.put("hbaseSessionDAO.keyScope", KEY_SCOPE);
        main.put("hbaseSessionDAO.table", namespace.table("sessions"));
        main.put("hbaseSessionDAO.indexTable", namespace.table("user_sessions"));
        main.put("hbaseSessionDAO.regions", "1");
        return ini;
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
