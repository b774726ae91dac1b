package io.hbasesessions.spring.session;

import io.hbasesessions.spring.boot.SessionStoreProperties;
import io.hbasesessions.store.KeyScopes;
import io.hbasesessions.store.StoreSettings;
import jakarta.servlet.ServletContext;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportAware;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.session.FlushMode;
import org.springframework.session.MapSession;
import org.springframework.session.SaveMode;
import org.springframework.session.SessionIdGenerator;
import org.springframework.session.config.annotation.web.http.SpringHttpSessionConfiguration;

/**
 * What {@link EnableHBaseHttpSession} and {@link HBaseSessionAutoConfiguration} import: Spring Session's servlet
 * configuration (the filter, the cookie or header id resolver, the session listeners) over an
 * {@link HBaseIndexedSessionRepository}.
 */
@Configuration(proxyBeanMethods = false)
public class HBaseHttpSessionConfiguration extends SpringHttpSessionConfiguration implements ImportAware,
        BeanClassLoaderAware {

    /** From {@link EnableHBaseHttpSession}; empty when Boot's auto-configuration imported this class. */
    private Optional<Duration> maxInactiveInterval = Optional.empty();
    private FlushMode flushMode = FlushMode.ON_SAVE;
    private SaveMode saveMode = SaveMode.ON_SET_ATTRIBUTE;
    private SessionSystem sessionSystem = SessionSystem.SPRING_SESSION;
    private ClassLoader classLoader = HBaseHttpSessionConfiguration.class.getClassLoader();
    private Optional<String> contextPath = Optional.empty();

    @Bean(destroyMethod = "close")
    public HBaseIndexedSessionRepository sessionRepository(Environment environment,
            ApplicationEventPublisher eventPublisher, ObjectProvider<SessionIdGenerator> idGenerator) {
        HBaseIndexedSessionRepository repository = new HBaseIndexedSessionRepository(settings(environment),
                classLoader, sessionSystem);
        repository.setDefaultMaxInactiveInterval(maxInactiveInterval.orElseGet(() -> bootTimeout(environment)));
        repository.setFlushMode(flushMode);
        repository.setSaveMode(saveMode);
        repository.setApplicationEventPublisher(eventPublisher);
        idGenerator.ifAvailable(repository::setSessionIdGenerator);
        return repository;
    }

    /**
     * The {@code hbase.sessions.*} properties, bound and checked as the starter binds them; the key scope defaults to
     * the servlet context path.
     */
    StoreSettings settings(Environment environment) {
        StoreSettings.Builder builder = StoreSettings.builder();
        SessionStoreProperties.bind(environment, classLoader).byName().forEach(builder::set);
        return builder.defaultKeyScope(KeyScopes.defaultFor(Optional.empty(), contextPath.orElse(""))).build();
    }

    /** Boot's session timeout: {@code spring.session.timeout}, else {@code server.servlet.session.timeout}, else 30 minutes. */
    static Duration bootTimeout(Environment environment) {
        Binder binder = Binder.get(environment);
        return binder.bind("spring.session.timeout", Duration.class)
                .orElseGet(() -> binder.bind("server.servlet.session.timeout", Duration.class)
                        .orElse(MapSession.DEFAULT_MAX_INACTIVE_INTERVAL));
    }

    @Override
    public void setServletContext(ServletContext servletContext) {
        super.setServletContext(servletContext);
        contextPath = Optional.ofNullable(servletContext).map(ServletContext::getContextPath);
    }

    @Override
    public void setImportMetadata(AnnotationMetadata metadata) {
        Map<String, Object> attributes = metadata.getAnnotationAttributes(EnableHBaseHttpSession.class.getName());
        if (attributes == null) {
            return;
        }
        AnnotationAttributes enable = AnnotationAttributes.fromMap(attributes);
        maxInactiveInterval = Optional.of(Duration.ofSeconds(enable.<Integer>getNumber("maxInactiveIntervalInSeconds")));
        flushMode = enable.getEnum("flushMode");
        saveMode = enable.getEnum("saveMode");
        sessionSystem = enable.getEnum("sessionSystem");
    }

    @Override
    public void setBeanClassLoader(ClassLoader beanClassLoader) {
        this.classLoader = beanClassLoader;
    }
}
