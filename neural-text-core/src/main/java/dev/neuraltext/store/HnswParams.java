package dev.neuraltext.store;

/**
 * Parameters of the dense leg's HNSW graph (Lucene's {@code org.apache.lucene.util.hnsw}): how many neighbours a node
 * keeps per layer, how wide the candidate list is while inserting, and how many candidates a search keeps.
 *
 * <p><b>The search beam grows with the graph.</b> A search of the top {@code k} over a graph of {@code n} vectors
 * keeps {@link #beam(int, int)} = {@code max(k, efSearch, efSearch * n / efSearchScale)} candidates (at most 10,000):
 * {@code efSearch} up to {@code efSearchScale} vectors, and proportionally more beyond. A fixed beam finds less of the
 * exact top 10 as the graph grows, and fastest where the corpus holds many near-duplicates (copied, generated or
 * renamed code): measured with {@code bench scale} (1,000,000 vectors, each with about 200 near-duplicates, leg limit
 * 100), a beam of 100 / 200 / 400 / 800 / 1,600 finds 0.67 / 0.83 / 0.95 / 0.99 / 1.00 of the exact top 10 at a
 * dense-leg p50 of 2.6 / 3.1 / 7.4 / 15.7 / 29.7 ms, while at 100,000 vectors a beam of 100 already finds all of it
 * (2.6 ms). The default scale, 125,000 vectors, keeps 100 up to there and gives 800 at a million. {@code
 * efSearchScale} 0 keeps the beam at {@code max(k, efSearch)} whatever the size.
 *
 * <p>Defaults ({@link #defaults()}): {@code maxConnections} 16, {@code beamWidth} 100, {@code efSearch} 100,
 * {@code buildThreads} the number of available processors, {@code efSearchScale} 125,000. Larger values buy recall
 * with build time (maxConnections, beamWidth) or search time (efSearch, a smaller efSearchScale). Builds run on a fixed
 * pool of {@code buildThreads} daemon threads named {@code neural-text-hnsw-build-N}, created for the build and shut
 * down after it; searches run on the caller's thread. Immutable and thread-safe.
 *
 * @param maxConnections neighbours per node on the upper layers (twice this on the bottom layer), in [2, 512]
 * @param beamWidth      candidates kept while inserting a node, in [1, 3200]
 * @param efSearch       candidates kept while searching a graph of up to {@code efSearchScale} vectors (and at least
 *                       the search's limit), in [1, 10000]
 * @param buildThreads   threads that insert nodes concurrently during a build or merge, in [1, 256]
 * @param efSearchScale  the graph size per {@code efSearch} candidates: larger graphs search with proportionally more;
 *                       0 for a fixed beam; in [0, 1000000000]
 */
public record HnswParams(int maxConnections, int beamWidth, int efSearch, int buildThreads, int efSearchScale) {

    /** The default {@link #efSearchScale()}: see the class documentation for the measurements behind it. */
    public static final int DEFAULT_EF_SEARCH_SCALE = 125_000;

    /** The widest beam a search keeps, whatever the graph's size. */
    public static final int MAX_BEAM = 10_000;

    /** Validates the ranges. */
    public HnswParams {
        if (maxConnections < 2 || maxConnections > 512) {
            throw new IllegalArgumentException("maxConnections must be in [2, 512], got " + maxConnections);
        }
        if (beamWidth < 1 || beamWidth > 3200) {
            throw new IllegalArgumentException("beamWidth must be in [1, 3200], got " + beamWidth);
        }
        if (efSearch < 1 || efSearch > MAX_BEAM) {
            throw new IllegalArgumentException("efSearch must be in [1, 10000], got " + efSearch);
        }
        if (buildThreads < 1 || buildThreads > 256) {
            throw new IllegalArgumentException("buildThreads must be in [1, 256], got " + buildThreads);
        }
        if (efSearchScale < 0 || efSearchScale > 1_000_000_000) {
            throw new IllegalArgumentException("efSearchScale must be in [0, 1000000000] (0: a fixed beam), got "
                    + efSearchScale);
        }
    }

    /** Parameters whose beam grows with the graph at the default scale ({@link #DEFAULT_EF_SEARCH_SCALE}). */
    public HnswParams(int maxConnections, int beamWidth, int efSearch, int buildThreads) {
        this(maxConnections, beamWidth, efSearch, buildThreads, DEFAULT_EF_SEARCH_SCALE);
    }

    /** maxConnections 16, beamWidth 100, efSearch 100, buildThreads the available processors (at most 256), scale 125,000. */
    public static HnswParams defaults() {
        return new HnswParams(16, 100, 100, Math.min(256, Runtime.getRuntime().availableProcessors()));
    }

    /** A copy with another {@link #efSearchScale()} (0: a fixed beam of {@code max(k, efSearch)}). */
    public HnswParams withEfSearchScale(int scale) {
        return new HnswParams(maxConnections, beamWidth, efSearch, buildThreads, scale);
    }

    /**
     * The candidates a search of the top {@code k} keeps in a graph of {@code vectors} vectors:
     * {@code max(k, efSearch, ceil(efSearch * vectors / efSearchScale))}, at most {@link #MAX_BEAM} (but never below
     * {@code k}).
     */
    public int beam(int k, int vectors) {
        long beam = Math.max(k, efSearch);
        if (efSearchScale > 0 && vectors > efSearchScale) {
            long scaled = ((long) efSearch * vectors + efSearchScale - 1) / efSearchScale;
            beam = Math.max(beam, Math.min(scaled, MAX_BEAM));
        }
        return (int) beam;
    }
}
