package dev.neuraltext.store;

/**
 * Parameters of the dense leg's HNSW graph (Lucene's {@code org.apache.lucene.util.hnsw}): how many neighbours a node
 * keeps per layer, how wide the candidate list is while inserting, and how many candidates a search keeps.
 *
 * <p>Defaults ({@link #defaults()}): {@code maxConnections} 16, {@code beamWidth} 100, {@code efSearch} 100 (a search
 * keeps at least its own {@code limit} candidates, so a leg limit of 100 already searches with 100), {@code
 * buildThreads} the number of available processors. Larger values buy recall with build time (maxConnections,
 * beamWidth) or search time (efSearch). Builds run on a fixed pool of {@code buildThreads} daemon threads named
 * {@code neural-text-hnsw-build-N}, created for the build and shut down after it; searches run on the caller's
 * thread. Immutable and thread-safe.
 *
 * @param maxConnections neighbours per node on the upper layers (twice this on the bottom layer), in [2, 512]
 * @param beamWidth      candidates kept while inserting a node, in [1, 3200]
 * @param efSearch       candidates kept while searching (at least the search's limit), in [1, 10000]
 * @param buildThreads   threads that insert nodes concurrently during a build or merge, in [1, 256]
 */
public record HnswParams(int maxConnections, int beamWidth, int efSearch, int buildThreads) {

    /** Validates the ranges. */
    public HnswParams {
        if (maxConnections < 2 || maxConnections > 512) {
            throw new IllegalArgumentException("maxConnections must be in [2, 512], got " + maxConnections);
        }
        if (beamWidth < 1 || beamWidth > 3200) {
            throw new IllegalArgumentException("beamWidth must be in [1, 3200], got " + beamWidth);
        }
        if (efSearch < 1 || efSearch > 10_000) {
            throw new IllegalArgumentException("efSearch must be in [1, 10000], got " + efSearch);
        }
        if (buildThreads < 1 || buildThreads > 256) {
            throw new IllegalArgumentException("buildThreads must be in [1, 256], got " + buildThreads);
        }
    }

    /** maxConnections 16, beamWidth 100, efSearch 100, buildThreads the available processors (at most 256). */
    public static HnswParams defaults() {
        return new HnswParams(16, 100, 100, Math.min(256, Runtime.getRuntime().availableProcessors()));
    }
}
