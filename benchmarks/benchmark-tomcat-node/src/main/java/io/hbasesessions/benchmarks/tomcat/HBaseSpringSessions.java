package io.hbasesessions.benchmarks.tomcat;

import io.hbasesessions.spring.session.HBaseIndexedSessionRepository;
import io.hbasesessions.spring.session.SessionSystem;
import io.hbasesessions.store.KeyScopes;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoreSettings;
import java.util.Map;
import java.util.Optional;

/**
 * This project's {@link HBaseIndexedSessionRepository} with the store settings the HBase rows use, at the defaults
 * {@code @EnableHBaseHttpSession} gives it (flush mode ON_SAVE, save mode ON_SET_ATTRIBUTE, 30 minutes idle), its key
 * scope the context path's, as that configuration's.
 */
final class HBaseSpringSessions implements SpringSessionBackend {

    private final Map<String, String> storeSettings;
    private final String contextPath;
    private HBaseIndexedSessionRepository repository;

    HBaseSpringSessions(Map<String, String> storeSettings, String contextPath) {
        this.storeSettings = storeSettings;
        this.contextPath = contextPath;
    }

    @Override
    public HBaseIndexedSessionRepository open(ClassLoader applicationClassLoader) {
        StoreSettings.Builder settings = StoreSettings.builder();
        storeSettings.forEach(settings::set);
        repository = new HBaseIndexedSessionRepository(settings.defaultKeyScope(KeyScopes.defaultFor(Optional.empty(),
                contextPath)).build(), applicationClassLoader, SessionSystem.SPRING_SESSION);
        return repository;
    }

    @Override
    public StoreCounters hbaseCounters() {
        return repository == null ? null : repository.store().counters();
    }

    @Override
    public void close() {
        if (repository != null) {
            repository.close();
        }
    }
}
