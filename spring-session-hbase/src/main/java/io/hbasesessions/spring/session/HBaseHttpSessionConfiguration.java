package io.hbasesessions.spring.session;

import jakarta.servlet.ServletContext;
import java.util.Optional;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportAware;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.session.SessionIdGenerator;
import org.springframework.session.config.annotation.web.http.SpringHttpSessionConfiguration;

/**
 * What {@link EnableHBaseHttpSession} and {@link HBaseSessionAutoConfiguration} import: Spring Session's servlet
 * configuration (the filter, the cookie or header id resolver, the session listeners) over an
 * {@link HBaseIndexedSessionRepository} with the {@code hbase.sessions.*} properties; the key scope defaults to the
 * servlet context path, the idle timeout to {@code spring.session.timeout}, else
 * {@code server.servlet.session.timeout}.
 */
@Configuration(proxyBeanMethods = false)
public class HBaseHttpSessionConfiguration extends SpringHttpSessionConfiguration implements ImportAware,
        BeanClassLoaderAware {

    private final RepositoryOptions options = new RepositoryOptions();
    private Optional<String> contextPath = Optional.empty();

    @Bean(destroyMethod = "close")
    public HBaseIndexedSessionRepository sessionRepository(Environment environment,
            ApplicationEventPublisher eventPublisher, ObjectProvider<SessionIdGenerator> idGenerator) {
        return options.open(environment, contextPath.orElse(""), "server.servlet.session.timeout", eventPublisher,
                idGenerator);
    }

    /** Autowired again: an override does not inherit the annotation, and without it a WAR's key scope would be {@code /}. */
    @Override
    @Autowired(required = false)
    public void setServletContext(ServletContext servletContext) {
        super.setServletContext(servletContext);
        contextPath = Optional.ofNullable(servletContext).map(ServletContext::getContextPath);
    }

    @Override
    public void setImportMetadata(AnnotationMetadata metadata) {
        options.read(metadata, EnableHBaseHttpSession.class);
    }

    @Override
    public void setBeanClassLoader(ClassLoader beanClassLoader) {
        options.classLoader(beanClassLoader);
    }
}
