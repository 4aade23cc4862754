package dev.neuraltext.encode;

import java.util.List;

/**
 * Scores (query, passage) pairs jointly, typically with a cross-encoder, to reorder a shortlist.
 *
 * <p>Implementations must be safe for concurrent use. Implementations holding native resources also implement
 * {@link AutoCloseable}; whoever created the reranker closes it.
 */
public interface Reranker {

    /** An identifier of the model and its settings. */
    String modelId();

    /**
     * Scores every passage against the query; higher is more relevant. Scores are in [0, 1] (e.g. the sigmoid of a
     * cross-encoder logit) so that relevance thresholds keep their meaning after reranking.
     *
     * @return one score per passage, in the order of {@code passages}
     * @throws dev.neuraltext.NeuralTextException if the model fails
     */
    double[] score(String query, List<String> passages);
}
