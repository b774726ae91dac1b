package io.hbasesessions.testapp;

import java.io.Serializable;

/**
 * Shaped like Spring Security's {@code SecurityContextImpl}: the store finds its user through
 * {@code getAuthentication().getName()}, reflectively, without knowing the class.
 */
public final class SecurityContextLike implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Authentication authentication;

    public SecurityContextLike(String user) {
        this.authentication = new Authentication(user);
    }

    public Authentication getAuthentication() {
        return authentication;
    }

    @Override
    public String toString() {
        return "SecurityContextLike(" + authentication.getName() + ")";
    }

    /** Shaped like Spring Security's {@code UsernamePasswordAuthenticationToken}. */
    public static final class Authentication implements Serializable {
        private static final long serialVersionUID = 1L;

        private final String name;

        Authentication(String name) {
            this.name = name;
        }

        public String getName() {
            return name;
        }
    }
}
