package io.hbasesessions.admin;

import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreAdministration;
import io.hbasesessions.store.StoreSettings;
import java.util.List;
import picocli.CommandLine.Command;

@Command(name = "verify", description = "Checks every table against the schema the store needs, as a node does at "
        + "start: each problem is printed with the HBase shell command that fixes it (exit code 1 if any).")
final class VerifyCommand extends StoreCommand {

    @Override
    int run(StoreSettings settings) {
        try (StoreAdministration admin = SessionStores.administer(settings)) {
            List<String> problems = admin.schemaProblems();
            return answer(Report.of("schemaOk", problems.isEmpty(), "problems", problems),
                    problems.isEmpty() ? ExitCodes.OK : ExitCodes.PROBLEM);
        }
    }
}
