package io.hbasesessions.embedded;

/** A JVM shutdown hook that stops what a launcher started when this JVM exits without stopping it. */
final class ShutdownHook {

    private Thread hook;

    /** Replaces a hook registered earlier by this object. */
    synchronized void register(String name, Runnable stop) {
        remove();
        hook = new Thread(stop, name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    synchronized void remove() {
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shutdownInProgress) {
            // Called from the hook itself.
        }
        hook = null;
    }
}
