package io.hbasesessions.spring.boot;

import io.hbasesessions.store.StoreConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a refused {@code hbase.sessions.*} setting into Boot's "APPLICATION FAILED TO START" report:
 * the store's explanation, instead of a stack of bean creation failures around it.
 */
final class SessionSettingsFailureAnalyzer extends AbstractFailureAnalyzer<StoreConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StoreConfigurationException cause) {
        return new FailureAnalysis(cause.getMessage(), "Correct the " + SessionStoreProperties.PREFIX + ".* properties "
                + "(README, \"Spring Boot\"), or set " + SessionStoreProperties.ENABLED + "=false to keep the server's own "
                + "sessions.", cause);
    }
}
