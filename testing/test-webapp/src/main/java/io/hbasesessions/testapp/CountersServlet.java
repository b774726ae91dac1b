package io.hbasesessions.testapp;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The session store's MBean ({@code io.hbasesessions:type=SessionStore,*}) as this node's JVM shows it:
 * one {@code name=value} line per attribute (the counters, {@code keyScope}, {@code settings}), and
 * {@code mbean=<object name>}. With {@code revokeAll=USER} it invokes the MBean's operation first and
 * answers {@code revoked=N}. Never touches a session. A JVM with more than one store answers 500.
 */
@WebServlet("/counters")
public final class CountersServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, String> out = new LinkedHashMap<>();
        try {
            List<ObjectName> stores = List.copyOf(server.queryNames(new ObjectName("io.hbasesessions:type=SessionStore,*"),
                    null));
            if (stores.size() != 1) {
                throw new ServletException("Expected one session store MBean in this JVM, found " + stores);
            }
            ObjectName store = stores.get(0);
            String user = request.getParameter("revokeAll");
            if (user != null) {
                Object revoked = server.invoke(store, "revokeAll", new Object[] {user}, new String[] {String.class.getName()});
                out.put("revoked", String.valueOf(revoked));
            }
            out.put("mbean", store.toString());
            for (MBeanAttributeInfo attribute : server.getMBeanInfo(store).getAttributes()) {
                out.put(attribute.getName(), String.valueOf(server.getAttribute(store, attribute.getName())));
            }
        } catch (JMException e) {
            throw new ServletException("Cannot read the session store's MBean: " + e, e);
        }
        Answers.write(response, out);
    }
}
