package dev.neuraltext.store;

/**
 * How {@link InMemoryCaseStore} runs its dense leg: an exact cosine scan, an approximate search over an HNSW graph, or
 * the choice by size ({@link #AUTO}, the default).
 */
public enum DenseSearch {
    /**
     * Exact below {@link #AUTO_ANN_THRESHOLD} dense vectors, the graph from there on. Below that size the exact scan
     * answers in a few milliseconds on one core (about 0.15 µs per 384-d vector, so 3 ms at 20,000) with perfect
     * recall, while a graph would cost build time and heap for a small gain; above it the scan grows past the
     * hybrid budget of 10 ms at 100,000 chunks and the graph's search stays near-constant.
     */
    AUTO,
    /** Always the exact scan: perfect recall, time linear in the number of vectors. No graph is built or kept. */
    EXACT,
    /** Always the graph (built from the first vector on), with the exact fallback for very selective filters. */
    ANN;

    /** The number of dense vectors from which {@link #AUTO} searches the graph: 20,000. */
    public static final int AUTO_ANN_THRESHOLD = 20_000;
}
