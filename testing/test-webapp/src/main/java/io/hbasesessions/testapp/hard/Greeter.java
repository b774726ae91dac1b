package io.hbasesessions.testapp.hard;

/** The interface of a dynamic proxy: it exists only in the WAR, so only the webapp's class loader sees it. */
public interface Greeter {

    /** Counts the call in the proxy's handler: calling it changes the attribute in place. */
    String greet();

    /** How often {@link #greet} was called, without counting. */
    int calls();

    /** The proxy itself, as its handler keeps it (for fluent calls): a cycle through the proxy. */
    Greeter self();
}
