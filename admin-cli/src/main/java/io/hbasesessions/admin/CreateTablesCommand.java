package io.hbasesessions.admin;

import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreAdministration;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.TablePlan;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "create-tables", description = "Prints the tables (descriptors, split points, the equivalent HBase "
        + "shell command), then creates those that are missing and checks the others.")
final class CreateTablesCommand extends StoreCommand {

    @Option(names = "--dry-run", description = "Print what would be created; connect to nothing, create nothing.")
    boolean dryRun;

    @Override
    boolean createsTables() {
        return true;
    }

    @Override
    int run(StoreSettings settings) {
        List<Object> tables = SessionStores.tablePlans(settings).stream().map(CreateTablesCommand::described).toList();
        if (dryRun) {
            return answer(Report.of("dryRun", true, "regions", settings.get(Setting.REGIONS), "tables", tables,
                    "created", List.of()), ExitCodes.OK);
        }
        try (StoreAdministration admin = SessionStores.administer(settings)) {
            List<String> created = admin.createTables();
            return answer(Report.of("dryRun", false, "regions", settings.get(Setting.REGIONS), "tables", tables,
                    "created", created), ExitCodes.OK);
        }
    }

    private static Object described(TablePlan plan) {
        return Report.of("name", plan.name(), "descriptor", plan.descriptor(), "splitKeys",
                String.join(" ", plan.splitKeysHex()), "shellCommand", plan.shellCommand());
    }
}
