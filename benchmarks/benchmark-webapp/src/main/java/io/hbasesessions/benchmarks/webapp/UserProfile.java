package io.hbasesessions.benchmarks.webapp;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** What an application typically keeps about the signed-in user. */
public record UserProfile(long userId, String displayName, String email, String locale, List<String> roles,
        Instant lastLogin, Map<String, String> preferences) implements Serializable {
}
