package io.hbasesessions.store.codec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hbasesessions.store.RelocatedGadgets;
import io.hbasesessions.store.RelocatedGadgets.Chain;
import io.hbasesessions.store.SerializerKind;
import io.hbasesessions.store.WarClassLoaderFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue #27 at the codec: the chains of {@link RelocatedGadgets}, built from the Commons Collections that HBase's
 * shaded client carries relocated, decoded as a node decodes a forged cell. Before, the Commons Collections 4
 * chains ran their command (the deny list names the libraries' own packages only, and Kryo rebuilt the
 * non-Serializable InvokerTransformer); the 3.2.2 chain stopped in its InvokerTransformer's own readObject. Now
 * each is refused by the class rules before any of its classes is loaded, both where this library is on the
 * server's class path (a Tomcat or Jetty install) and where the application shares its class loader (Spring
 * Boot, a WAR holding the Shiro DAO).
 */
class RelocatedGadgetChainTest {

    @TempDir
    Path work;

    /** Where the web application's class loader finds this library and the shaded client. */
    enum Deployment { SERVER_CLASS_PATH, SHARED_CLASS_LOADER }

    static Stream<Arguments> chainsAndDeployments() {
        List<Arguments> all = new ArrayList<>();
        for (Chain chain : Chain.values()) {
            for (Deployment deployment : Deployment.values()) {
                all.add(Arguments.of(chain, deployment));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} with this library on the {1}")
    @MethodSource("chainsAndDeployments")
    void aChainOfRelocatedClassesIsRefusedBeforeAnyOfItsClassesIsLoadedAndNothingRuns(Chain chain,
            Deployment deployment) throws Exception {
        Path marker = RelocatedGadgets.markerIn(work, chain.name());
        byte[] bytes = chain.forged(marker);
        ClassLoader library = getClass().getClassLoader();
        try (WarClassLoaderFixture.WarLoader webapp = WarClassLoaderFixture.emptyWarOn(library)) {
            SessionCodec codec = SessionCodec.of(SerializerKind.KRYO,
                    deployment == Deployment.SERVER_CLASS_PATH ? webapp : library);

            CodecException failure = decodingFailure(codec, bytes);
            assertFalse(Files.exists(marker), "the chain ran its command: " + marker + " exists");
            assertNotNull(failure, "the value was decoded");
            assertTrue(failure.refused(), "not refused by the class rules: " + failure.getMessage());
            assertTrue(failure.getMessage().contains("is one of the classes hbase-sessions ships"), failure.getMessage());
            if (deployment == Deployment.SERVER_CLASS_PATH) {
                assertTrue(webapp.requested().stream().noneMatch(name -> name.contains("commons.collections")),
                        "a relocated Commons Collections class was looked up: " + webapp.requested());
            }
        }
    }

    /** Why decoding {@code bytes} failed; null if it did not. */
    static CodecException decodingFailure(SessionCodec codec, byte[] bytes) {
        try {
            codec.decode(bytes);
            return null;
        } catch (CodecException e) {
            return e;
        }
    }
}
