package io.hbasesessions.jetty;

import io.hbasesessions.store.SessionPrincipal;
import java.util.List;
import java.util.Optional;
import javax.security.auth.Subject;
import org.eclipse.jetty.security.RolePrincipal;
import org.eclipse.jetty.security.UserIdentity;
import org.eclipse.jetty.security.UserPrincipal;
import org.eclipse.jetty.security.authentication.SessionAuthentication;

/**
 * Jetty's login in a session ({@link SessionAuthentication}, under
 * {@link SessionAuthentication#AUTHENTICATED_ATTRIBUTE}) as the store's neutral {@link SessionPrincipal},
 * and back. The attribute itself is never stored: Jetty 12.0's keeps the user's password, and no other
 * container could read it. The roles are those the login service put in the user's subject.
 */
final class JettyLogins {

    private JettyLogins() {
    }

    static Optional<SessionPrincipal> loginOf(Object authentication) {
        if (!(authentication instanceof SessionAuthentication login) || login.getUserIdentity() == null) {
            return Optional.empty();
        }
        UserIdentity identity = login.getUserIdentity();
        List<String> roles = identity.getSubject() == null ? List.of()
                : identity.getSubject().getPrincipals(RolePrincipal.class).stream().map(RolePrincipal::getName).toList();
        return Optional.of(new SessionPrincipal(identity.getUserPrincipal().getName(), roles,
                login.getAuthenticationType()));
    }

    /** A login Jetty recognises, without credentials: the user logged in on some node, maybe on another container. */
    static SessionAuthentication sessionAuthenticationOf(SessionPrincipal login) {
        Subject subject = new Subject();
        UserPrincipal user = new UserPrincipal(login.name(), null);
        subject.getPrincipals().add(user);
        login.roles().forEach(role -> subject.getPrincipals().add(new RolePrincipal(role)));
        UserIdentity identity = UserIdentity.from(subject, user, login.roles().toArray(String[]::new));
        return new SessionAuthentication(login.authType(), identity, null);
    }
}
