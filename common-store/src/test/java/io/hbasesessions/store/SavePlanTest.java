package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The save rules in plain Java: what a save writes, with what durability, and how it lands on a newer state. */
class SavePlanTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final ExpiryPolicy EXPIRY = new ExpiryPolicy(60, 7 * 24 * 3600);
    private static final SavePlan.Durabilities DURABILITIES =
            new SavePlan.Durabilities(WriteDurability.ASYNC_WAL, WriteDurability.USE_DEFAULT);
    private static final AttributeChanges NONE = new AttributeChanges(Map.of(), Set.of());

    private static StoredState base() {
        return StoredState.newSession(SerializerKind.KRYO, SessionRecord.created("id", T0, Duration.ofMinutes(30)))
                .toBuilder().attribute("cart", new byte[] {1}).attribute("theme", new byte[] {2}).build();
    }

    private static SavePlan plan(SessionRecord current, AttributeChanges changes, Optional<String> user) {
        return SavePlan.decide(base(), current, changes, user, Optional.empty(), EXPIRY, DURABILITIES);
    }

    private static SessionRecord current() {
        return base().record("id");
    }

    @Test
    void nothingChangedAndNoNewAccessIsNothing() {
        assertEquals(SavePlan.Kind.NOTHING, plan(current(), NONE, Optional.empty()).kind());
    }

    @Test
    void anAccessIsATouchOnlyOnceTheTouchIntervalPassed() {
        assertEquals(SavePlan.Kind.TOUCH_NOT_DUE,
                plan(current().withLastAccessTime(T0.plusSeconds(59)), NONE, Optional.empty()).kind());
        SavePlan touch = plan(current().withLastAccessTime(T0.plusSeconds(60)), NONE, Optional.empty());
        assertEquals(SavePlan.Kind.TOUCH, touch.kind());
        assertEquals(WriteDurability.USE_DEFAULT, touch.durability());
    }

    @Test
    void changedAttributesAreAWriteWithWriteDurability() {
        SavePlan write = plan(current(), new AttributeChanges(Map.of("cart", new byte[] {9}), Set.of()), Optional.empty());
        assertEquals(SavePlan.Kind.WRITE, write.kind());
        assertEquals(WriteDurability.ASYNC_WAL, write.durability());
    }

    @Test
    void aLoginIsALifecycleWriteThatIndexesTheUserAndALogoutUnindexesIt() {
        SavePlan login = plan(current().withLogin(new SessionPrincipal("ada", List.of(), "FORM")), NONE, Optional.of("ada"));
        assertEquals(SavePlan.Kind.WRITE, login.kind());
        assertEquals(WriteDurability.SYNC_WAL, login.durability());
        assertEquals(Optional.of("ada"), login.newUser());
        assertEquals(Optional.empty(), login.previousUser());
    }

    @Test
    void onANewerStateOnlyThisRequestsChangesAndTheLaterAccessAreApplied() {
        AttributeChanges changes = new AttributeChanges(Map.of("cart", new byte[] {9}), Set.of("theme"));
        SavePlan plan = plan(current().withLastAccessTime(T0.plusSeconds(5)).withMaxInactiveInterval(Duration.ofMinutes(5)),
                changes, Optional.empty());
        StoredState newer = base().toBuilder().attribute("other", new byte[] {7}).lastAccessTime(T0.plusSeconds(9)).build();

        StoredState merged = plan.onto(newer).build();
        assertEquals(Set.of("cart", "other"), merged.attributeBytes().keySet());
        assertArrayEquals(new byte[] {9}, merged.attributeBytes().get("cart"));
        assertEquals(T0.plusSeconds(9), merged.lastAccessTime(), "the later access of the two");
        assertEquals(Duration.ofMinutes(5), merged.maxInactiveInterval(), "changed by this request");
    }

    @Test
    void aCollisionIsAnotherWritersChangeOfAnAttributeThisRequestChangedToo() {
        SavePlan plan = plan(current(), new AttributeChanges(Map.of("cart", new byte[] {9}), Set.of()), Optional.empty());
        assertFalse(plan.collidesWith(base().toBuilder().attribute("theme", new byte[] {5}).build()));
        assertTrue(plan.collidesWith(base().toBuilder().attribute("cart", new byte[] {5}).build()));
    }

    @Test
    void theCellTtlNeverShrinksAndASessionEndsAtItsMaximumLifetime() {
        StoredState longTtl = base().toBuilder().cellTtlMillis(Duration.ofHours(2).toMillis())
                .maxInactiveInterval(Duration.ofMinutes(1)).build();
        assertEquals(Duration.ofHours(2).toMillis(), EXPIRY.nextCellTtlMillis(longTtl));
        assertFalse(EXPIRY.isOverAt(base(), T0.plus(Duration.ofMinutes(29))));
        assertTrue(EXPIRY.isOverAt(base(), T0.plus(Duration.ofMinutes(30))));
        StoredState neverIdles = base().toBuilder().maxInactiveInterval(Duration.ZERO).build();
        assertFalse(EXPIRY.isOverAt(neverIdles, T0.plus(Duration.ofDays(7)).minusMillis(1)));
        assertTrue(EXPIRY.isOverAt(neverIdles, T0.plus(Duration.ofDays(7))));
    }
}
