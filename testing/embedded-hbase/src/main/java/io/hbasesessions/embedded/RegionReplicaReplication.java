package io.hbasesessions.embedded;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a test class that uses {@link HBaseClusterExtension}: its cluster runs with region replica
 * replication ({@link EmbeddedHBaseCluster.Builder#regionReplicaReplication}), so the secondary replicas
 * of its tables with {@code REGION_REPLICATION > 1} follow their primaries' edits.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RegionReplicaReplication {
}
