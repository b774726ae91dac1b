package io.hbasesessions.shirotestapp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.SessionListenerAdapter;
import org.apache.shiro.subject.PrincipalCollection;
import org.apache.shiro.subject.support.DefaultSubjectContext;

/**
 * Shiro's {@code onExpiration} on this node, as {@code /expired} lists it: one line per event, the session's
 * {@code tag}, its user (read from the principals the login stored) and its cart, all decoded from HBase.
 */
public class ExpiryLog extends SessionListenerAdapter {

    private static final List<String> EXPIRED = new CopyOnWriteArrayList<>();

    @Override
    public void onExpiration(Session session) {
        PrincipalCollection login = (PrincipalCollection) session.getAttribute(DefaultSubjectContext.PRINCIPALS_SESSION_KEY);
        EXPIRED.add(session.getAttribute("tag") + " " + (login == null ? null : login.getPrimaryPrincipal()) + " "
                + session.getAttribute("cart"));
    }

    static String lines() {
        StringBuilder lines = new StringBuilder();
        EXPIRED.forEach(line -> lines.append(line).append('\n'));
        return lines.toString();
    }
}
