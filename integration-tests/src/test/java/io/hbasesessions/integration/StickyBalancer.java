package io.hbasesessions.integration;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.proxy.BalancerServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A load balancer with session affinity by route, as users put one in front of the nodes: Jetty's own
 * {@link BalancerServlet} with {@code stickySessions=true}, on 127.0.0.1 in this JVM. A request whose
 * {@code JSESSIONID} cookie (or {@code ;jsessionid=} path parameter) ends in {@code .<route>} goes to the member of
 * that name, any other round robin; each member is a node named by its route (Tomcat's jvmRoute, Jetty's worker
 * name), so the balancer follows the route a node gives a session it takes over.
 *
 * <p>BalancerServlet checks no member's health: a test takes a stopped node out ({@link #routeTo}) and puts it
 * back, as a health check or an operator would. Requests sent while it changes its members are not answered.
 */
final class StickyBalancer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;
    private final ServletContextHandler context;
    private final ServletHolder balancer;

    private StickyBalancer(Server server, ServerConnector connector, ServletContextHandler context,
            ServletHolder balancer) {
        this.server = server;
        this.connector = connector;
        this.context = context;
        this.balancer = balancer;
    }

    /** Starts a balancer on a free port with {@code members}. */
    static StickyBalancer start(List<Node> members) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        ServletHolder balancer = new ServletHolder(BalancerServlet.class);
        balancer.setInitParameters(configuration(members));
        // Started with the context, so that a balancer that cannot route says so at once.
        balancer.setInitOrder(0);
        context.addServlet(balancer, "/*");
        server.setHandler(context);
        server.start();
        return new StickyBalancer(server, connector, context, balancer);
    }

    /**
     * BalancerServlet's configuration: sticky by route, {@code Location} headers of the members' redirects rewritten
     * to the balancer, one {@code balancerMember.<route>.proxyTo} per node.
     */
    private static Map<String, String> configuration(List<Node> members) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("stickySessions", "true");
        parameters.put("proxyPassReverse", "true");
        for (Node member : members) {
            parameters.put("balancerMember." + member.route() + ".proxyTo", "http://127.0.0.1:" + member.process().port());
        }
        return parameters;
    }

    /**
     * Routes to {@code members} from now on: a request whose route names a node that is not among them goes round
     * robin to the others, and a node that is again gets the requests routed to it.
     */
    synchronized void routeTo(List<Node> members) throws Exception {
        context.stop();
        balancer.setInitParameters(configuration(members));
        context.start();
        if (!balancer.isAvailable()) {
            throw new IllegalStateException("The balancer did not start with members " + members);
        }
    }

    /** The test WAR's {@code /session} servlet, through the balancer. */
    URI session() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + TestNodes.CONTEXT_PATH + "/session");
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
