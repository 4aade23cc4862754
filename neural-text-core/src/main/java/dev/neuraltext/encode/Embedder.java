package dev.neuraltext.encode;

import java.util.List;

/**
 * Turns texts into dense vectors for the dense retrieval leg.
 *
 * <p>Implementations must be safe for concurrent use by several threads. Implementations holding native resources
 * (ONNX sessions) also implement {@link AutoCloseable}; whoever created the embedder closes it.
 */
public interface Embedder {

    /** The length of every vector this embedder returns: a declared property, never computed by calling the model. */
    int dimension();

    /** An identifier of the model and its settings (e.g. {@code all-MiniLM-L6-v2/mean/256}), recorded in index fingerprints. */
    String modelId();

    /**
     * Embeds {@code texts} in one or more batches.
     *
     * @return one vector of length {@link #dimension()} per text, in the order of {@code texts}
     * @throws dev.neuraltext.NeuralTextException if the model fails
     */
    List<float[]> embed(List<String> texts, TextRole role);

    /** Embeds one query. */
    default float[] embedQuery(String query) {
        return embed(List.of(query), TextRole.QUERY).get(0);
    }
}
