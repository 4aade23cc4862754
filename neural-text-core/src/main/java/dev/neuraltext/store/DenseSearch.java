package dev.neuraltext.store;

/**
 * How {@link InMemoryCaseStore} runs its dense leg: an exact cosine scan, an approximate search over an HNSW graph, or
 * the choice by size ({@link #AUTO}, the default).
 */
public enum DenseSearch {
    /**
     * Exact below {@link #AUTO_ANN_THRESHOLD} dense vectors, the graph from there on. The exact scan costs about
     * 0.125 µs per 384-d vector on one core (12.5 ms per 100,000 on a quiet machine, JDK 17 without the Vector API), so
     * at the threshold it takes about 2.5 ms: a quarter of the 10 ms hybrid budget, with perfect recall, and no graph
     * to build (seconds of CPU) or keep (a few hundred bytes of heap per vector). Above it the scan alone outgrows the
     * budget (12.5 ms at 100,000) while the graph's search grows with the logarithm of the size.
     */
    AUTO,
    /** Always the exact scan: perfect recall, time linear in the number of vectors. No graph is built or kept. */
    EXACT,
    /** Always the graph (built from the first vector on), with the exact fallback for very selective filters. */
    ANN;

    /** The number of dense vectors from which {@link #AUTO} searches the graph: 20,000. */
    public static final int AUTO_ANN_THRESHOLD = 20_000;
}
