package io.hbasesessions.jetty;

import java.lang.reflect.InvocationTargetException;
import java.util.Optional;
import org.eclipse.jetty.server.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code HttpSessionActivationListener} events for the store's sessions, as the Tomcat adapter sends them: a value
 * is activated when it comes to life in this JVM (the request first reads it), and every value the request brought
 * to life is passivated when the request lets go of the session. Jetty sends these events itself only for a
 * passivating store, and finds the listeners by reading every attribute of every session at load and at release,
 * which decodes what the request never uses and makes the save compare it all again. This module sits on Jetty's
 * server class path, which has no Servlet API: the listener interface is reached through the value's own class
 * (the web application's loader sees the Servlet API), and the event carries the session's API object, Jetty's
 * {@code HttpSession}.
 */
final class ActivationEvents {

    private static final Logger LOG = LoggerFactory.getLogger(ActivationEvents.class);
    private static final String PACKAGE = "jakarta.servlet.http.";
    private static final String LISTENER = PACKAGE + "HttpSessionActivationListener";
    /** The listener interface a class implements, if it does; looked up once per class. */
    private static final ClassValue<Optional<Class<?>>> LISTENER_OF = new ClassValue<>() {
        @Override
        protected Optional<Class<?>> computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Class<?> implemented : c.getInterfaces()) {
                    Optional<Class<?>> found = implemented.getName().equals(LISTENER) ? Optional.of(implemented)
                            : get(implemented);
                    if (found.isPresent()) {
                        return found;
                    }
                }
            }
            return Optional.empty();
        }
    };

    private ActivationEvents() {
    }

    static void didActivate(Object value, Session session) {
        send(value, session, "sessionDidActivate");
    }

    static void willPassivate(Iterable<Object> values, Session session) {
        values.forEach(value -> send(value, session, "sessionWillPassivate"));
    }

    private static void send(Object value, Session session, String event) {
        Optional<Class<?>> listener = LISTENER_OF.get(value.getClass());
        if (listener.isEmpty()) {
            return;
        }
        try {
            ClassLoader servletApi = listener.get().getClassLoader();
            Class<?> eventType = Class.forName(PACKAGE + "HttpSessionEvent", false, servletApi);
            Class<?> httpSession = Class.forName(PACKAGE + "HttpSession", false, servletApi);
            Object sessionEvent = eventType.getConstructor(httpSession).newInstance(httpSession.cast(session.getApi()));
            listener.get().getMethod(event, eventType).invoke(value, sessionEvent);
        } catch (InvocationTargetException e) {
            LOG.warn("An attribute of class {} failed in {}", value.getClass().getName(), event, e.getCause());
        } catch (ReflectiveOperationException | ClassCastException e) {
            LOG.warn("No {} for an attribute of class {}: this context's sessions are no Servlet HttpSessions ({})",
                    event, value.getClass().getName(), e.toString());
        }
    }
}
