package io.hbasesessions.embedded;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class a real HBase cluster of its own: {@code @ExtendWith(HBaseClusterExtension.class)},
 * then declare parameters of test or lifecycle methods (static {@code @BeforeAll} too) of these types:
 * <ul>
 *   <li>{@link EmbeddedHBaseCluster}: the class's cluster of 3 region servers (ZooKeeper session
 *       timeout 5 s), whose region servers its tests may kill and restart. Do not stop it.</li>
 *   <li>{@link TestNamespace}: the namespace of this test class on that cluster, for its tables.</li>
 *   <li>{@link Configuration}: a new client configuration for that cluster.</li>
 * </ul>
 * The cluster starts when a parameter first needs it, under {@code target/embedded-hbase-<random>},
 * and stops and is deleted when the test class ends: a cluster costs about 4 JVMs and 1.3 GB, so unlike
 * {@link HBaseExtension}'s server it is not kept for the other classes of the run. A class annotated
 * {@link RegionReplicaReplication} gets a cluster with region replica replication on.
 */
public final class HBaseClusterExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(HBaseClusterExtension.class);
    /** A killed region server's regions move after about this long, instead of the default's 10 s. */
    private static final Duration TEST_SESSION_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedHBaseCluster.class || type == TestNamespace.class || type == Configuration.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        EmbeddedHBaseCluster cluster = clusterOf(context);
        if (type == TestNamespace.class) {
            return classStore(context).getOrComputeIfAbsent(TestNamespace.class,
                    key -> TestServers.createNamespace(cluster, TestNamespace.newName(context.getRequiredTestClass())),
                    TestNamespace.class);
        }
        return type == Configuration.class ? cluster.clientConfiguration() : cluster;
    }

    private static EmbeddedHBaseCluster clusterOf(ExtensionContext context) {
        return (EmbeddedHBaseCluster) classStore(context)
                .getOrComputeIfAbsent(TestServers.Started.class,
                        key -> TestServers.start(directory -> EmbeddedHBaseCluster.builder().dataDirectory(directory)
                                .zookeeperSessionTimeout(TEST_SESSION_TIMEOUT)
                                .regionReplicaReplication(context.getRequiredTestClass()
                                        .isAnnotationPresent(RegionReplicaReplication.class))
                                .build()),
                        TestServers.Started.class)
                .hbase();
    }

    /** The store of the test class's context, closed when the class's tests end. */
    private static ExtensionContext.Store classStore(ExtensionContext context) {
        ExtensionContext classContext = context.getTestMethod().isPresent() ? context.getParent().orElseThrow() : context;
        return classContext.getStore(STORE);
    }
}
