package io.hbasesessions.testapp.hard;

import java.io.Serializable;

/** A record whose two components may be one object: identity must survive the round trip. */
public record Pair(Object left, Object right) implements Serializable {

    public boolean sharesOneObject() {
        return left == right;
    }
}
