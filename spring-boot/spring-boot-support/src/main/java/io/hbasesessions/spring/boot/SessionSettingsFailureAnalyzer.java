package io.hbasesessions.spring.boot;

import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreUnavailableException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a session store that refused to open into Boot's "APPLICATION FAILED TO START" report: the
 * store's explanation and what to do, instead of a stack of bean and server failures around it. (Tomcat
 * only logs why its manager failed; Boot then reports the context that failed to start.)
 */
final class SessionSettingsFailureAnalyzer extends AbstractFailureAnalyzer<SessionStoreException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SessionStoreException cause) {
        String turnOff = ", or set " + SessionStoreProperties.ENABLED + "=false to keep the server's own sessions.";
        String action;
        if (cause instanceof StoreConfigurationException) {
            action = "Correct the " + SessionStoreProperties.PREFIX + ".* properties (README, \"Spring Boot\")" + turnOff;
        } else if (cause instanceof StoreUnavailableException) {
            action = "Start HBase, or point " + SessionStoreProperties.propertyName(Setting.ZOOKEEPER_QUORUM)
                    + " (or " + SessionStoreProperties.propertyName(Setting.HBASE_SITE) + ") at a running cluster" + turnOff;
        } else {
            return null;
        }
        return new FailureAnalysis(cause.getMessage(), action, cause);
    }
}
