package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ids and routes the store accepts: exactly the ASCII shapes the containers issue, and nothing longer. */
class SessionIdsTest {

    private static final String ID = "3F2A9C0D5E7B41A8B6C4D2E0F1A3B5C7";

    @Test
    void aUriLosesThePathParametersNamingTheSessionWhateverTheirNameAndRoute() {
        assertEquals("/shop/protected/order", SessionIds.uriWithout("/shop/protected/order;jsessionid=" + ID, List.of(ID)));
        assertEquals("/shop/a/b?x=1", SessionIds.uriWithout("/shop/a;sid=" + ID + ".node0/b?x=1", List.of(ID + ".jvm1")));
        assertEquals("/shop/a;v=2", SessionIds.uriWithout("/shop/a;v=2", List.of(ID)), "another path parameter stays");
        assertEquals("/shop/" + ID, SessionIds.uriWithout("/shop/" + ID, List.of(ID)), "only path parameters are removed");
    }

    @Test
    void nothingButValidIdsIsLookedFor() {
        assertEquals("/shop/a;jsessionid=x", SessionIds.uriWithout("/shop/a;jsessionid=x", Arrays.asList(null, "", "x.y.z")));
        assertNull(SessionIds.uriWithout(null, List.of(ID)));
    }

    @Test
    void anIdIsOneTo256OfTheCharactersContainersUse() {
        assertTrue(SessionIds.isValid("AZaz09_+/=-"));
        assertTrue(SessionIds.isValid("a"));
        assertTrue(SessionIds.isValid("x".repeat(256)));
        assertFalse(SessionIds.isValid("x".repeat(257)));
        assertFalse(SessionIds.isValid(""));
        assertFalse(SessionIds.isValid(null));
        for (String hostile : new String[] {"a.b", "a b", "a\nb", "a;b", "é", "a\u0000", "١٢٣", "ａ", "a%2e", "a*"}) {
            assertFalse(SessionIds.isValid(hostile), hostile);
        }
    }

    @Test
    void aRouteIsOneTo64LettersDigitsUnderscoresOrDashes() {
        assertTrue(SessionIds.isRoute("jvm1"));
        assertTrue(SessionIds.isRoute("node_0-A"));
        assertTrue(SessionIds.isRoute("r".repeat(64)));
        assertFalse(SessionIds.isRoute("r".repeat(65)));
        assertFalse(SessionIds.isRoute(""));
        assertFalse(SessionIds.isRoute(null));
        assertFalse(SessionIds.isRoute("a+b"));
        assertFalse(SessionIds.isRoute("nöde"));
    }

    @Test
    void onlyASuffixShapedLikeARouteIsStripped() {
        assertEquals("abc", SessionIds.withoutRoute("abc.jvm1"));
        assertEquals("jvm1", SessionIds.routeOf("abc.jvm1"));
        assertEquals("a.b", SessionIds.withoutRoute("a.b.c"));
        assertEquals("abc", SessionIds.withoutRoute("abc.".concat("r".repeat(64))));
        String overlongRoute = "abc.".concat("r".repeat(65));
        assertEquals(overlongRoute, SessionIds.withoutRoute(overlongRoute));
        assertEquals("abc.", SessionIds.withoutRoute("abc."));
        assertEquals(".jvm1", SessionIds.withoutRoute(".jvm1"));
        assertEquals("abc.jv m", SessionIds.withoutRoute("abc.jv m"));
        assertEquals("abc", SessionIds.withoutRoute("abc"));
        assertNull(SessionIds.routeOf("abc"));
        assertNull(SessionIds.withoutRoute(null));
    }
}
