package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
