package io.hbasesessions.testapp;

import java.io.Serializable;
import java.security.Principal;

/** A user an application logged in itself, kept in the session as a {@link Principal} of its own class. */
public final class AppPrincipal implements Principal, Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;

    public AppPrincipal(String name) {
        this.name = name;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String toString() {
        return "AppPrincipal(" + name + ")";
    }
}
