package io.hbasesessions.shirotestapp;

import io.hbasesessions.shiro.HBaseSessionDAO;
import jakarta.servlet.ServletContext;
import org.apache.shiro.env.NamedObjectEnvironment;
import org.apache.shiro.web.util.WebUtils;

/** "Log out everywhere" as an application calls it: through the DAO its shiro.ini configured. */
final class Revocation {

    private Revocation() {
    }

    static int revokeAll(ServletContext context, String user) {
        NamedObjectEnvironment environment = (NamedObjectEnvironment) WebUtils.getRequiredWebEnvironment(context);
        return environment.getObject("hbaseSessionDAO", HBaseSessionDAO.class).revokeAll(user);
    }
}
