package io.hbasesessions.admin;

import io.hbasesessions.store.IndexSweep;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreAdministration;
import io.hbasesessions.store.StoreSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "sweep-index", description = "Removes the user index entries whose session is gone (deleted, "
        + "ended, unreadable, or now another user's) and prints the counts. Readers skip such entries anyway; "
        + "this only gives the space back sooner than the table's TTL.")
final class SweepIndexCommand extends StoreCommand {

    @Option(names = "--min-entry-age-seconds", paramLabel = "SECONDS", description = "Only entries written at least "
            + "this long ago (by the region servers' clocks) are judged: a younger one may be a login still writing "
            + "its session. At least operationTimeoutMillis. Default: ${DEFAULT-VALUE}.")
    long minEntryAgeSeconds = 600;

    @Override
    int run(StoreSettings settings) {
        try (StoreAdministration admin = SessionStores.administer(settings)) {
            IndexSweep sweep = admin.sweepIndex(minEntryAgeSeconds);
            return answer(Report.of("scanned", sweep.scanned(), "removed", sweep.removed(), "kept", sweep.kept(),
                    "unparseableRows", sweep.unparseable(), "minEntryAgeSeconds", sweep.minEntryAgeSeconds()),
                    ExitCodes.OK);
        }
    }
}
