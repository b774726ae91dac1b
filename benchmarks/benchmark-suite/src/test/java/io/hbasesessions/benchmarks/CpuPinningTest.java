package io.hbasesessions.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CpuPinningTest {

    @Test
    void theNodesGetWhatTheBackendLeavesOfThisJvmsCpus() {
        CpuPinning pinning = CpuPinning.split("0", CpuPinning.parse("0-1"));

        assertEquals("backend 0, nodes and load 1", pinning.toString());
    }

    @Test
    void listsWithRangesAreSplitAndWrittenBackAsRanges() {
        CpuPinning pinning = CpuPinning.split("2-3,6", CpuPinning.parse("0-7"));

        assertEquals("2-3,6", pinning.backendCpuList());
        assertEquals("0-1,4-5,7", pinning.otherCpuList());
    }

    @Test
    void backendCpusThisJvmCannotUseTakeNothingFromTheNodes() {
        // As when run.sh or a user started the suite under taskset -c 1 already.
        assertEquals("1", CpuPinning.split("0", CpuPinning.parse("1")).otherCpuList());
    }

    @Test
    void aListThatLeavesNoCpuIsRefused() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> CpuPinning.split("0-1", CpuPinning.parse("0,1")));

        assertEquals("--pin-backend-cpus 0-1 leaves no CPU for the nodes and the load generator: this JVM may use 0-1; "
                + "give the backends fewer", refused.getMessage());
    }

    @Test
    void whatIsNotATasksetListIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.parse("0;1"));
        assertThrows(IllegalArgumentException.class, () -> CpuPinning.parse("3-1"));
        assertThrows(IllegalArgumentException.class, () -> SuiteOptions.parse("--smoke", "--pin-backend-cpus", "all"));
    }
}
