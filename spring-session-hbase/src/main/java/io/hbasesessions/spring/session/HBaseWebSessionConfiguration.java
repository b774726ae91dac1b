package io.hbasesessions.spring.session;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportAware;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.session.SessionIdGenerator;
import org.springframework.session.config.annotation.web.server.SpringWebSessionConfiguration;

/**
 * What {@link EnableHBaseWebSession} and {@link HBaseWebSessionAutoConfiguration} import: Spring Session's WebFlux
 * configuration (the {@code webSessionManager}, with the application's {@code WebSessionIdResolver} if it has one, as
 * Boot's {@code server.reactive.session.cookie.*} makes) over a {@link ReactiveHBaseIndexedSessionRepository} with the
 * {@code hbase.sessions.*} properties; the key scope defaults to {@code spring.webflux.base-path}, the idle timeout to
 * {@code spring.session.timeout}, else {@code server.reactive.session.timeout}.
 */
@Configuration(proxyBeanMethods = false)
public class HBaseWebSessionConfiguration extends SpringWebSessionConfiguration implements ImportAware,
        BeanClassLoaderAware {

    /** WebFlux's context path, Boot's property for it. */
    static final String BASE_PATH = "spring.webflux.base-path";

    private final RepositoryOptions options = new RepositoryOptions();

    @Bean(destroyMethod = "close")
    public ReactiveHBaseIndexedSessionRepository reactiveSessionRepository(Environment environment,
            ApplicationEventPublisher eventPublisher, ObjectProvider<SessionIdGenerator> idGenerator) {
        return new ReactiveHBaseIndexedSessionRepository(options.open(environment,
                environment.getProperty(BASE_PATH, ""), "server.reactive.session.timeout", eventPublisher, idGenerator),
                null);
    }

    @Override
    public void setImportMetadata(AnnotationMetadata metadata) {
        options.read(metadata, EnableHBaseWebSession.class);
    }

    @Override
    public void setBeanClassLoader(ClassLoader beanClassLoader) {
        options.classLoader(beanClassLoader);
    }
}
