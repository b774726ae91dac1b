package io.hbasesessions.tomcat;

import java.security.Principal;
import java.util.List;
import java.util.Map;
import org.apache.catalina.realm.GenericPrincipal;
import org.apache.catalina.realm.RealmBase;

/** Two fixed users (password {@value #PASSWORD}), for login tests; public so context.xml can name it. */
public final class TestRealm extends RealmBase {

    static final String PASSWORD = "pw-unique-4Tk9Wm";
    private static final Map<String, List<String>> ROLES = Map.of("alice", List.of("user"), "bob", List.of("user", "admin"),
            "carol", List.of("user"));

    @Override
    protected String getPassword(String username) {
        return ROLES.containsKey(username) ? PASSWORD : null;
    }

    @Override
    protected Principal getPrincipal(String username) {
        return ROLES.containsKey(username) ? new GenericPrincipal(username, ROLES.get(username)) : null;
    }
}
