package io.hbasesessions.tomcat;

import java.util.function.Supplier;
import org.apache.catalina.Context;

/**
 * Runs store calls with the web application's class loader as the thread's context loader: the store
 * decodes attribute values with it, and their classes usually exist only inside the WAR. Tomcat binds
 * it for request processing, but not everywhere a manager is called from (connector threads, JMX).
 */
final class WebappClassLoader {

    private WebappClassLoader() {
    }

    static <T> T call(Context context, Supplier<T> storeCall) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(context.getLoader().getClassLoader());
        try {
            return storeCall.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    static void run(Context context, Runnable storeCall) {
        call(context, () -> {
            storeCall.run();
            return null;
        });
    }
}
