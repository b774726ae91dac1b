package io.hbasesessions.testapp;

import jakarta.servlet.http.HttpSessionActivationListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import jakarta.servlet.http.HttpSessionEvent;
import java.io.Serializable;

/** An attribute that counts the binding and activation events the container sends it. */
public final class ListeningNote implements Serializable, HttpSessionBindingListener, HttpSessionActivationListener {
    private static final long serialVersionUID = 1L;

    private final String text;

    public ListeningNote(String text) {
        this.text = text;
    }

    @Override
    public void valueBound(HttpSessionBindingEvent event) {
        SessionEvents.count("bound");
    }

    @Override
    public void valueUnbound(HttpSessionBindingEvent event) {
        SessionEvents.count("unbound");
        SessionEndings.unbound(this, text, event);
    }

    @Override
    public void sessionWillPassivate(HttpSessionEvent event) {
        SessionEvents.count("passivated");
    }

    @Override
    public void sessionDidActivate(HttpSessionEvent event) {
        SessionEvents.count("activated");
    }

    @Override
    public String toString() {
        return "ListeningNote(" + text + ")";
    }
}
