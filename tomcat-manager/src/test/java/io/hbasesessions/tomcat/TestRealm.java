package io.hbasesessions.tomcat;

import io.hbasesessions.testing.contract.AbstractAdapterContractTest;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import org.apache.catalina.realm.GenericPrincipal;
import org.apache.catalina.realm.RealmBase;

/** Three fixed users with the contract suite's password, for login tests; public so context.xml can name it. */
public final class TestRealm extends RealmBase {

    static final String PASSWORD = AbstractAdapterContractTest.PASSWORD;
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
