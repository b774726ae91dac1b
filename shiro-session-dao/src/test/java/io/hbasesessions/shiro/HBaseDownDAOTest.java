package io.hbasesessions.shiro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.store.StoreUnavailableException;
import io.hbasesessions.store.UnavailableCalls;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.UnknownSessionException;
import org.apache.shiro.session.mgt.SimpleSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase down: every DAO operation fails within the operation timeout with the store's one exception, or, with
 * failMode=new_session, a read finds nothing; Shiro's validation (the expiry sweep) ends nothing and goes on.
 */
class HBaseDownDAOTest {

    private static final long TIMEOUT_MILLIS = 1_500;

    @Test
    void everyOperationFailsWithinTheOperationTimeout(@TempDir Path data) throws Exception {
        EmbeddedHBase own = EmbeddedHBase.builder().dataDirectory(data).startTimeout(Duration.ofSeconds(120)).build().start();
        HBaseSessionDAO failing = dao(own, "error");
        HBaseSessionDAO goingOn = dao(own, "new_session");
        try {
            Serializable id = createWhileTheNewTablesWarmUp(failing);
            Session read = failing.readSession(id);

            own.stop();
            read.setAttribute("cart", "pen");
            Map<String, Executable> operations = new LinkedHashMap<>();
            operations.put("create", () -> failing.create(new SimpleSession()));
            operations.put("readSession", () -> failing.readSession(id));
            operations.put("update", () -> failing.update(read));
            operations.put("delete", () -> failing.delete(read));
            operations.put("revokeAll", () -> failing.revokeAll("alice"));
            UnavailableCalls.assertEachFailsWithin(TIMEOUT_MILLIS, operations);

            assertThrows(UnknownSessionException.class, () -> goingOn.readSession(id));
            long sweepStartNanos = System.nanoTime();
            assertEquals(List.of(), failing.sweepExpired(), "a failed sweep ends nothing, logged");
            long sweepMillis = Duration.ofNanos(System.nanoTime() - sweepStartNanos).toMillis();
            assertTrue(sweepMillis <= TIMEOUT_MILLIS + UnavailableCalls.MARGIN_MILLIS, "the expiry sweep took " + sweepMillis + " ms");
        } finally {
            failing.destroy();
            goingOn.destroy();
            own.stop();
        }
    }

    private static HBaseSessionDAO dao(EmbeddedHBase hbase, String failMode) {
        HBaseSessionDAO dao = new HBaseSessionDAO();
        dao.setZookeeperQuorum(hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        dao.setKeyScope(ShiroIni.KEY_SCOPE);
        dao.setRegions("1");
        dao.setOperationTimeoutMillis(Long.toString(TIMEOUT_MILLIS));
        dao.setFailMode(failMode);
        dao.setExpiryEvents("true");
        dao.init();
        return dao;
    }

    /**
     * The session the test works on, made while HBase is up: the first write to freshly made tables may take longer
     * than this test's short operationTimeoutMillis on a busy machine, which is not what the test is about.
     */
    private static Serializable createWhileTheNewTablesWarmUp(HBaseSessionDAO dao) {
        for (int attempt = 1; ; attempt++) {
            SimpleSession created = new SimpleSession();
            created.setAttribute("cart", "book");
            try {
                return dao.create(created);
            } catch (StoreUnavailableException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }
}
