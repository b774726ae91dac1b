package io.hbasesessions.store;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/** The contract suite run against the HBase store on a real HBase. */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionStoreOnHBaseTest extends AbstractSessionStoreContractTest {

    private final MutableClock clock = new MutableClock(TestStores.START);
    private StoreSettings settings;
    private SessionStore store;
    private SessionStore otherScope;
    private HBaseInspector hbase;

    /** The settings the suite runs with, beyond the test namespace's tables; subclasses add their own. */
    StoreSettings.Builder configured(StoreSettings.Builder settings) {
        return settings;
    }

    /**
     * The store keeps expiry events, with a key file (and stateProtection none): the expiry index holds the ids it
     * must name, encrypted whenever there is a key (without one they are readable, as docs/security.md says).
     */
    @BeforeAll
    void openStores(EmbeddedHBase server, TestNamespace namespace, Configuration configuration, @TempDir Path work)
            throws IOException {
        Path expiryKey = Files.write(work.resolve("expiry-key"), List.of(StateSealTest.newKey()));
        settings = configured(TestStores.settings(server, namespace).set(Setting.EXPIRY_EVENTS, true)
                .set(Setting.EXPIRY_TABLE, namespace.table("session_expiry")).set(Setting.STATE_KEY_FILE, expiryKey))
                .build();
        store = TestStores.open(settings, clock);
        otherScope = TestStores.open(settings.toBuilder().set(Setting.KEY_SCOPE, "/blog").build(), clock);
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    void closeStores() throws Exception {
        store.close();
        otherScope.close();
        hbase.close();
    }

    @Override
    protected SessionStore store() {
        return store;
    }

    @Override
    protected SessionStore storeInOtherScope() {
        return otherScope;
    }

    @Override
    protected MutableClock clock() {
        return clock;
    }

    @Override
    protected Map<String, byte[]> rawCells(SessionStore of, String sessionId) {
        Map<String, byte[]> cells = new LinkedHashMap<>();
        Result row = hbase.row(settings.get(Setting.TABLE), TestStores.rowKey(of.keyScope(), sessionId));
        for (Cell cell : row.rawCells()) {
            cells.put(Bytes.toString(CellUtil.cloneQualifier(cell)), CellUtil.cloneValue(cell));
        }
        return cells;
    }

    @Override
    protected StoredBytes everythingStored() {
        List<byte[]> stored = new ArrayList<>();
        int olderVersions = 0;
        for (String table : List.of(settings.get(Setting.TABLE), settings.get(Setting.INDEX_TABLE))) {
            for (Result row : hbase.rawScan(table)) {
                olderVersions += add(row, stored);
            }
        }
        List<Result> expiryIndex = hbase.rawScan(settings.get(Setting.EXPIRY_TABLE));
        for (Result row : expiryIndex) {
            olderVersions += add(row, stored);
        }
        return new StoredBytes(stored, olderVersions, expiryIndex.size());
    }

    /** Adds the row's key and every cell's qualifier and value; returns how many cells are older versions. */
    private static int add(Result row, List<byte[]> stored) {
        stored.add(row.getRow());
        int olderVersions = 0;
        Cell newer = null;
        for (Cell cell : row.rawCells()) {
            stored.add(CellUtil.cloneQualifier(cell));
            stored.add(CellUtil.cloneValue(cell));
            olderVersions += newer != null && CellUtil.matchingColumn(newer, cell) ? 1 : 0;
            newer = cell;
        }
        return olderVersions;
    }
}
