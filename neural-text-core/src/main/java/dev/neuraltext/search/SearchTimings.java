package dev.neuraltext.search;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the time of one search went.
 *
 * @param queryEncoding embedding and sparse-encoding the query
 * @param store         the store's search (all legs and the fusion)
 * @param rerank        the reranker, zero when it did not run
 * @param total         the whole search
 */
public record SearchTimings(Duration queryEncoding, Duration store, Duration rerank, Duration total) {
    public SearchTimings {
        Objects.requireNonNull(queryEncoding, "queryEncoding");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(rerank, "rerank");
        Objects.requireNonNull(total, "total");
    }

    /** All zero. */
    public static SearchTimings zero() {
        return new SearchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
    }
}
