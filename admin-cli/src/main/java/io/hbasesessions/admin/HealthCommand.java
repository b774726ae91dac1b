package io.hbasesessions.admin;

import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreHealth;
import io.hbasesessions.store.StoreSettings;
import picocli.CommandLine.Command;

@Command(name = "health", description = "Exit code 0 when HBase answers within operationTimeoutMillis (connecting "
        + "included) and every table has the right schema, 1 otherwise: for a load balancer's or a monitor's check. "
        + "The same check as the MBean's checkHealth operation.")
final class HealthCommand extends StoreCommand {

    @Override
    int run(StoreSettings settings) {
        StoreHealth health = SessionStores.checkHealth(settings);
        return answer(Report.of("healthy", health.healthy(), "elapsedMillis", health.elapsedMillis(),
                "operationTimeoutMillis", settings.get(Setting.OPERATION_TIMEOUT_MILLIS), "problems", health.problems()),
                health.healthy() ? ExitCodes.OK : ExitCodes.PROBLEM);
    }
}
