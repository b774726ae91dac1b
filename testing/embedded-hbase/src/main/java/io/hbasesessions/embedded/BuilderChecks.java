package io.hbasesessions.embedded;

import java.time.Duration;

/** The checks the launchers' builders share, each failing with a message that names the setting. */
final class BuilderChecks {

    private static final int MINIMUM_HEAP_MEGABYTES = 128;

    private BuilderChecks() {
    }

    static int zookeeperPort(int zookeeperPort) {
        if (zookeeperPort < 0 || zookeeperPort > 65535) {
            throw new EmbeddedHBaseException("zookeeperPort must be 0 (pick a free port) or 1..65535, not " + zookeeperPort);
        }
        return zookeeperPort;
    }

    static Duration positive(String name, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new EmbeddedHBaseException(name + " must be positive, not " + duration);
        }
        return duration;
    }

    static Duration notNegative(String name, Duration duration) {
        if (duration.isNegative()) {
            throw new EmbeddedHBaseException(name + " must not be negative, not " + duration);
        }
        return duration;
    }

    static int heapMegabytes(String name, int heapMegabytes) {
        if (heapMegabytes < MINIMUM_HEAP_MEGABYTES) {
            throw new EmbeddedHBaseException(name + " must be at least " + MINIMUM_HEAP_MEGABYTES + ", not " + heapMegabytes);
        }
        return heapMegabytes;
    }
}
