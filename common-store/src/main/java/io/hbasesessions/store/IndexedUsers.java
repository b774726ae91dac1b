package io.hbasesessions.store;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which user "log out everywhere" finds a session under: the container's login, or, with
 * {@code principalAttribute}, the user an application keeps in a session attribute itself: a
 * {@code String}, a {@link Principal}, Spring Security's {@code SecurityContext} (its
 * authentication's name) or Apache Shiro's {@code PrincipalCollection} (its primary principal), both
 * read reflectively: no compile-time dependency on either.
 */
final class IndexedUsers {

    /** Longer names are not user names; refusing them keeps index rows small. */
    static final int MAX_USER_CHARS = 1024;
    private static final String SPRING_ANONYMOUS = "AnonymousAuthenticationToken";
    private static final String SHIRO_PRINCIPALS = "org.apache.shiro.subject.PrincipalCollection";

    private IndexedUsers() {
    }

    /**
     * The container's login, or the user an application keeps in {@code principalAttribute} (read only if it changed):
     * with several names, comma-separated, the first attribute that names a user (Spring Session's explicit
     * principal name before Spring Security's context).
     */
    static Optional<String> of(StoredSession session, SessionRecord current, AttributeChanges changes, SessionKey key,
            List<String> names) {
        Optional<String> user;
        if (names.isEmpty()) {
            user = current.login().map(SessionPrincipal::name);
        } else if (!session.isStored() || names.stream().anyMatch(name -> changes.written().containsKey(name)
                || changes.removed().contains(name))) {
            user = names.stream().flatMap(name -> fromAttribute(session.attributes().get(name)).stream()).findFirst();
        } else {
            user = session.indexedUser();
        }
        return user.map(name -> checked(name, key.shortHex()));
    }

    /** The attribute names of a {@code principalAttribute} value, in order. */
    static List<String> names(String principalAttribute) {
        return Arrays.stream(principalAttribute.split(",")).map(String::strip).filter(name -> !name.isEmpty()).toList();
    }

    /** The user an attribute value names, if any. */
    static Optional<String> fromAttribute(Object value) {
        if (value instanceof String name) {
            return Optional.of(name).filter(text -> !text.isEmpty());
        }
        if (value instanceof Principal principal) {
            return Optional.ofNullable(principal.getName());
        }
        if (value == null) {
            return Optional.empty();
        }
        return isShiroPrincipals(value.getClass()) ? fromShiroPrincipals(value) : fromSecurityContext(value);
    }

    private static boolean isShiroPrincipals(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> implemented : c.getInterfaces()) {
                if (implemented.getName().equals(SHIRO_PRINCIPALS) || isShiroPrincipals(implemented)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Shiro's primary principal: the user name with its ini realm, any object with a custom realm (a
     * {@link Principal} by its name, anything else by its {@code toString()}, which revocation must then name).
     */
    private static Optional<String> fromShiroPrincipals(Object principals) {
        try {
            Object primary = principals.getClass().getMethod("getPrimaryPrincipal").invoke(principals);
            return primary == null ? Optional.empty() : fromAttribute(primary instanceof Principal ? primary : primary.toString());
        } catch (ReflectiveOperationException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> fromSecurityContext(Object context) {
        try {
            Method getAuthentication = context.getClass().getMethod("getAuthentication");
            Object authentication = getAuthentication.invoke(context);
            if (authentication == null || authentication.getClass().getSimpleName().equals(SPRING_ANONYMOUS)) {
                return Optional.empty();
            }
            return Optional.ofNullable((String) authentication.getClass().getMethod("getName").invoke(authentication));
        } catch (ReflectiveOperationException | ClassCastException | SecurityException e) {
            return Optional.empty();
        }
    }

    /**
     * @throws SessionStoreException for a name the index cannot hold exactly (overlong, or not
     *     well-formed Unicode), which would make the session impossible to find by its user
     */
    static String checked(String user, String sessionKeyHex) {
        if (user.length() > MAX_USER_CHARS) {
            throw new SessionStoreException("The user name is " + user.length() + " characters long; the user index "
                    + "holds at most " + MAX_USER_CHARS, sessionKeyHex, null);
        }
        for (int i = 0; i < user.length(); i++) {
            char c = user.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < user.length() && Character.isLowSurrogate(user.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
                throw new SessionStoreException("The user name contains an unpaired surrogate or a control character "
                        + "at index " + i + "; it cannot be indexed exactly", sessionKeyHex, null);
            }
        }
        return user;
    }
}
