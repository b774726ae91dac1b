package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** README's "What to watch" names every counter and every measured operation the MBean shows. */
class MetricsDocumentationTest {

    @Test
    void readmeNamesEveryCounterAndOperation() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String watch = readme.substring(readme.indexOf("- **What to watch.**"));
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
        assertEquals(List.of(), missing, "README's What to watch leaves these out");
    }
}
