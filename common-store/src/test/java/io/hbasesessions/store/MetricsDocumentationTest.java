package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "What to watch" in docs/operations.md names every counter and every measured operation the MBean shows. */
class MetricsDocumentationTest {

    @Test
    void theOperationsGuideNamesEveryCounterAndOperation() throws IOException {
        String guide = Files.readString(Path.of("..", "docs", "operations.md"));
        int start = guide.indexOf("- **What to watch.**");
        String watch = guide.substring(start, guide.indexOf("\n#", start));
        List<String> missing = new ArrayList<>();
        for (StoreCounter counter : StoreCounter.values()) {
            if (!watch.contains("`" + counter.counterName() + "`")) {
                missing.add(counter.counterName());
            }
        }
        for (StoreOperation operation : StoreOperation.values()) {
            if (!watch.contains("`" + operation.operationName() + "`")) {
                missing.add(operation.operationName());
            }
        }
        assertEquals(List.of(), missing, "What to watch in docs/operations.md leaves these out");
    }
}
