package io.hbasesessions.benchmarks.tomcat;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.util.EnumSet;
import java.util.Set;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;
import org.springframework.session.web.http.SessionRepositoryFilter;

/**
 * Spring Session's {@link SessionRepositoryFilter} in front of the WAR, registered as Spring Session's
 * {@code AbstractHttpSessionApplicationInitializer} registers it: on {@code /*}, before every filter the WAR declares,
 * for requests, error and async dispatches. The container's own session manager stays in place; the application
 * never reaches it, since the filter answers {@code getSession}.
 */
final class SpringSessionFilter implements ServletContainerInitializer {

    /** The name Spring Session's initializer gives the filter. */
    private static final String FILTER_NAME = "springSessionRepositoryFilter";

    private final SpringSessionBackend backend;

    SpringSessionFilter(SpringSessionBackend backend) {
        this.backend = backend;
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext servletContext) {
        FilterRegistration.Dynamic registration = servletContext.addFilter(FILTER_NAME,
                filterOver(backend.open(servletContext.getClassLoader())));
        registration.setAsyncSupported(true);
        registration.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ERROR,
                DispatcherType.ASYNC), false, "/*");
        servletContext.addListener(new ServletContextListener() {
            @Override
            public void contextDestroyed(ServletContextEvent event) {
                backend.close();
            }
        });
    }

    private static <S extends Session> SessionRepositoryFilter<S> filterOver(SessionRepository<S> repository) {
        return new SessionRepositoryFilter<>(repository);
    }
}
