package io.hbasesessions.tomcat;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.lang.reflect.Parameter;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;

/**
 * Makes the shared test HBase known to an Arquillian {@code @Deployment} method, which Arquillian calls
 * in its own before-all callback, before any {@code @BeforeAll} method could receive the server.
 * Register it before {@code ArquillianExtension}.
 */
final class HBaseForDeployments implements BeforeAllCallback {

    private static volatile String quorum;
    private static volatile TestNamespace namespace;

    /**
     * Asks {@link HBaseExtension} directly, as if for the parameters of {@link #parameters}: JUnit's own
     * resolution would also consult ArquillianExtension, which rejects parameters it does not know.
     */
    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Parameter[] parameters = HBaseForDeployments.class
                .getDeclaredMethod("parameters", EmbeddedHBase.class, TestNamespace.class).getParameters();
        HBaseExtension hbase = new HBaseExtension();
        quorum = TestManagers.quorum((EmbeddedHBase) hbase.resolveParameter(parameterContext(parameters, 0), context));
        namespace = (TestNamespace) hbase.resolveParameter(parameterContext(parameters, 1), context);
    }

    @SuppressWarnings("unused") // its parameters describe what beforeAll asks for
    private static void parameters(EmbeddedHBase hbase, TestNamespace testNamespace) {
    }

    private static ParameterContext parameterContext(Parameter[] parameters, int index) {
        return new ParameterContext() {
            @Override
            public Parameter getParameter() {
                return parameters[index];
            }

            @Override
            public int getIndex() {
                return index;
            }

            @Override
            public Optional<Object> getTarget() {
                return Optional.empty();
            }
        };
    }

    /** A {@code <Manager>} element for context.xml, on this test class's tables, with extra attributes. */
    static String managerElement(String extraAttributes) {
        return "<Manager className=\"" + HBaseSessionManager.class.getName() + "\" zookeeperQuorum=\"" + quorum
                + "\" table=\"" + namespace.table("sessions") + "\" indexTable=\"" + namespace.table("user_sessions")
                + "\" regions=\"2\" " + extraAttributes + "/>";
    }
}
