package io.hbasesessions.embedded;

import java.lang.reflect.Method;
import java.security.SecureRandom;
import java.util.Random;
import org.junit.jupiter.api.TestInfo;

/**
 * The HBase namespace of one test class on the shared server, so test classes never see each other's
 * rows. Created on first use by {@link HBaseExtension}; its name looks like {@code t_SessionStoreTest_k3x9qa}.
 */
public final class TestNamespace {

    private static final String RANDOM_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final int RANDOM_SUFFIX_LENGTH = 6;
    private static final Random RANDOM = new SecureRandom();

    private final String name;

    TestNamespace(String name) {
        this.name = name;
    }

    /** A new name for the namespace of {@code testClass}: {@code t_<SimpleClassName>_<6 random characters>}. */
    static String newName(Class<?> testClass) {
        StringBuilder name = new StringBuilder("t_").append(legal(testClass.getSimpleName())).append('_');
        for (int i = 0; i < RANDOM_SUFFIX_LENGTH; i++) {
            name.append(RANDOM_CHARACTERS.charAt(RANDOM.nextInt(RANDOM_CHARACTERS.length())));
        }
        return name.toString();
    }

    public String name() {
        return name;
    }

    /** A table of this namespace: {@code "<namespace>:<base>"}, for {@code TableName.valueOf(String)}. */
    public String table(String base) {
        return name + ":" + legal(base);
    }

    /** A table of its own for one test method: {@code "<namespace>:<base>_<methodName>"}. */
    public String table(String base, String methodName) {
        return table(base + "_" + methodName);
    }

    /** A table of its own for the running test method: {@code "<namespace>:<base>_<methodName>"}. */
    public String table(String base, TestInfo testInfo) {
        String methodName = testInfo.getTestMethod().map(Method::getName)
                .orElseThrow(() -> new EmbeddedHBaseException("No test method in " + testInfo.getDisplayName()
                        + ": use table(base) outside test methods"));
        return table(base, methodName);
    }

    @Override
    public String toString() {
        return name;
    }

    /** HBase namespace names allow only ASCII letters, digits and '_'; table names allow those too. */
    private static String legal(String text) {
        return text.replaceAll("[^A-Za-z0-9_]", "_");
    }
}
