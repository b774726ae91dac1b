package io.hbasesessions.benchmarks.http;

/** What each connection's requests do after the one that created its session. */
public enum Workload {
    READ_MOSTLY("read-mostly (9 reads : 1 write)", 10),
    WRITE_EVERY_REQUEST("write every request", 1);

    private final String label;
    /** Every this-many-th request writes; the others only read. */
    private final int writeEvery;

    Workload(String label, int writeEvery) {
        this.label = label;
        this.writeEvery = writeEvery;
    }

    public String label() {
        return label;
    }

    public int writeEvery() {
        return writeEvery;
    }

    /** The path of a connection's {@code request}-th request (counted from 1) after the session was created. */
    public String path(long request) {
        return request % writeEvery == 0 ? "write" : "read";
    }
}
