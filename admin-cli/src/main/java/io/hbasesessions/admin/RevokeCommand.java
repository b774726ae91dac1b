package io.hbasesessions.admin;

import io.hbasesessions.store.Revocation;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreAdministration;
import io.hbasesessions.store.StoreSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "revoke", description = "Log out everywhere: deletes every live session of the user, in every key "
        + "scope, as the web applications' revokeAll does, and prints the sessions it ended (row keys, never ids).")
final class RevokeCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "USER", description = "The user name, as the container's login or "
            + "principalAttribute names it.")
    String user;

    @Override
    int run(StoreSettings settings) {
        try (StoreAdministration admin = SessionStores.administer(settings)) {
            Revocation revocation = admin.revoke(user);
            return answer(Report.of("user", revocation.user(), "revoked", revocation.revoked(), "sessions",
                    revocation.sessions().stream().map(session -> Report.of("sessionKey", session.sessionKeyHex(),
                            "creationTime", session.creationTime().toString())).toList()), ExitCodes.OK);
        }
    }
}
