package io.hbasesessions.shiro;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import org.apache.shiro.config.Ini;
import org.apache.shiro.ini.IniSecurityManagerFactory;

/**
 * A Shiro configuration built from shiro.ini text, as Shiro builds a user's: the DAO is an ini bean. Shiro's web
 * environment uses the same factory, and destroys its beans when the application stops.
 */
final class ShiroIni {

    static final String KEY_SCOPE = "/shiro-test";

    private ShiroIni() {
    }

    /** The [main] lines of the DAO and a native session manager without the validation scheduler. */
    static String main(EmbeddedHBase hbase, TestNamespace namespace, String extraDaoSettings) {
        return """
                [main]
                hbaseSessionDAO = io.hbasesessions.shiro.HBaseSessionDAO
                hbaseSessionDAO.zookeeperQuorum = %s:%d
                hbaseSessionDAO.table = %s
                hbaseSessionDAO.indexTable = %s
                hbaseSessionDAO.keyScope = %s
                hbaseSessionDAO.regions = 1
                %s
                sessionManager = org.apache.shiro.session.mgt.DefaultSessionManager
                sessionManager.sessionDAO = $hbaseSessionDAO
                sessionManager.sessionValidationSchedulerEnabled = false
                securityManager.sessionManager = $sessionManager

                [users]
                alice = secret
                bob = secret
                """.formatted(hbase.zookeeperQuorum(), hbase.zookeeperPort(), namespace.table("sessions"),
                namespace.table("user_sessions"), KEY_SCOPE, extraDaoSettings);
    }

    @SuppressWarnings("deprecation")
    static IniSecurityManagerFactory factory(String iniText) {
        Ini ini = new Ini();
        ini.load(iniText);
        IniSecurityManagerFactory factory = new IniSecurityManagerFactory(ini);
        factory.getInstance();
        return factory;
    }

    @SuppressWarnings("deprecation")
    static HBaseSessionDAO dao(IniSecurityManagerFactory factory) {
        return (HBaseSessionDAO) factory.getBeans().get("hbaseSessionDAO");
    }
}
