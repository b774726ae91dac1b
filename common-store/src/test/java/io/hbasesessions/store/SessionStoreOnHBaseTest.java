package io.hbasesessions.store;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
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

    @BeforeAll
    void openStores(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) {
        settings = configured(TestStores.settings(server, namespace)).build();
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
    protected List<byte[]> everyStoredByteArray() {
        List<byte[]> stored = new ArrayList<>();
        for (String table : List.of(settings.get(Setting.TABLE), settings.get(Setting.INDEX_TABLE))) {
            for (Result row : hbase.scan(table)) {
                stored.add(row.getRow());
                for (Cell cell : row.rawCells()) {
                    stored.add(CellUtil.cloneQualifier(cell));
                    stored.add(CellUtil.cloneValue(cell));
                }
            }
        }
        return stored;
    }
}
