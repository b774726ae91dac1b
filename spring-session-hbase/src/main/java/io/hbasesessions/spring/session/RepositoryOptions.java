package io.hbasesessions.spring.session;

import io.hbasesessions.spring.boot.SessionStoreProperties;
import io.hbasesessions.store.KeyScopes;
import io.hbasesessions.store.StoreSettings;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.session.FlushMode;
import org.springframework.session.MapSession;
import org.springframework.session.SaveMode;
import org.springframework.session.SessionIdGenerator;

/**
 * What both configurations of this module ({@link HBaseHttpSessionConfiguration} for servlet applications,
 * {@link HBaseWebSessionConfiguration} for WebFlux) open their repository with: the attributes of the annotation that
 * imported them (none when Boot's auto-configuration did), the {@code hbase.sessions.*} properties as the starter binds
 * them ({@link SessionStoreProperties}, the one binding) and Boot's session timeout.
 */
final class RepositoryOptions {

    /** From the annotation; empty when Boot's auto-configuration imported the configuration. */
    private Optional<Duration> maxInactiveInterval = Optional.empty();
    private FlushMode flushMode = FlushMode.ON_SAVE;
    private SaveMode saveMode = SaveMode.ON_SET_ATTRIBUTE;
    private SessionSystem sessionSystem = SessionSystem.SPRING_SESSION;
    private ClassLoader classLoader = RepositoryOptions.class.getClassLoader();

    /** Takes the attributes of {@code annotation} on the importing class, if it is there; a missing flushMode is ON_SAVE. */
    void read(AnnotationMetadata metadata, Class<? extends Annotation> annotation) {
        Map<String, Object> attributes = metadata.getAnnotationAttributes(annotation.getName());
        if (attributes == null) {
            return;
        }
        AnnotationAttributes enable = AnnotationAttributes.fromMap(attributes);
        maxInactiveInterval = Optional.of(Duration.ofSeconds(enable.<Integer>getNumber("maxInactiveIntervalInSeconds")));
        if (enable.containsKey("flushMode")) {
            flushMode = enable.getEnum("flushMode");
        }
        saveMode = enable.getEnum("saveMode");
        sessionSystem = enable.getEnum("sessionSystem");
    }

    void classLoader(ClassLoader loader) {
        this.classLoader = loader;
    }

    /**
     * The repository of these options, its key scope defaulting to {@code contextPath}, its idle timeout Boot's
     * ({@code spring.session.timeout}, else {@code serverTimeoutProperty}, else 30 minutes) unless the annotation set one.
     */
    HBaseIndexedSessionRepository open(Environment environment, String contextPath, String serverTimeoutProperty,
            ApplicationEventPublisher eventPublisher, ObjectProvider<SessionIdGenerator> idGenerator) {
        HBaseIndexedSessionRepository repository = new HBaseIndexedSessionRepository(settings(environment, contextPath),
                classLoader, sessionSystem);
        repository.setDefaultMaxInactiveInterval(maxInactiveInterval.orElseGet(
                () -> bootTimeout(environment, serverTimeoutProperty)));
        repository.setFlushMode(flushMode);
        repository.setSaveMode(saveMode);
        repository.setApplicationEventPublisher(eventPublisher);
        idGenerator.ifAvailable(repository::setSessionIdGenerator);
        return repository;
    }

    /** The {@code hbase.sessions.*} properties, bound and checked as the starter binds them. */
    private StoreSettings settings(Environment environment, String contextPath) {
        StoreSettings.Builder builder = StoreSettings.builder();
        SessionStoreProperties.bind(environment, classLoader).byName().forEach(builder::set);
        return builder.defaultKeyScope(KeyScopes.defaultFor(Optional.empty(), contextPath)).build();
    }

    /** Boot's session timeout: {@code spring.session.timeout}, else the server's, else 30 minutes. */
    private static Duration bootTimeout(Environment environment, String serverTimeoutProperty) {
        Binder binder = Binder.get(environment);
        return binder.bind("spring.session.timeout", Duration.class)
                .orElseGet(() -> binder.bind(serverTimeoutProperty, Duration.class)
                        .orElse(MapSession.DEFAULT_MAX_INACTIVE_INTERVAL));
    }
}
