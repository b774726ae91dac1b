package io.hbasesessions.shirotestapp;

import java.util.Map;
import org.apache.shiro.config.Ini;
import org.apache.shiro.web.env.IniWebEnvironment;

/**
 * WEB-INF/shiro.ini with the [main] lines the node's system properties {@code shiro.ini.main.NAME=VALUE} give
 * (the DAO's HBase and tables, the session timeout): a WAR cannot know the test's HBase when it is built.
 */
public class NodeIniEnvironment extends IniWebEnvironment {

    static final String PREFIX = "shiro.ini.main.";

    @Override
    protected Ini parseConfig() {
        Ini ini = super.parseConfig();
        Map<String, String> main = ini.getSection("main");
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith(PREFIX)).sorted()
                .forEach(name -> main.put(name.substring(PREFIX.length()), System.getProperty(name)));
        return ini;
    }
}
