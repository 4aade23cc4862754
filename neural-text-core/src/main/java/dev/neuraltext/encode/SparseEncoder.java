package dev.neuraltext.encode;

import java.util.List;

/**
 * Turns texts into sparse vectors (SPLADE-style term weights over a vocabulary) for the sparse neural leg.
 *
 * <p>Implementations must be safe for concurrent use. Implementations holding native resources also implement
 * {@link AutoCloseable}; whoever created the encoder closes it.
 */
public interface SparseEncoder {

    /** An identifier of the model and its settings, recorded in index fingerprints. */
    String modelId();

    /**
     * Encodes {@code texts}.
     *
     * @return one sparse vector per text, in the order of {@code texts}
     * @throws dev.neuraltext.NeuralTextException if the model fails
     */
    List<SparseVector> encode(List<String> texts, TextRole role);
}
