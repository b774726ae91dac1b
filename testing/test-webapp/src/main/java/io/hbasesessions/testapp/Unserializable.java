package io.hbasesessions.testapp;

/** An attribute no serializer can write: it holds a thread, as an application that parks a worker in the session does. */
public final class Unserializable {

    private final Thread worker = new Thread(() -> { }, "parked-in-a-session");

    @Override
    public String toString() {
        return "Unserializable(" + worker.getName() + ")";
    }
}
