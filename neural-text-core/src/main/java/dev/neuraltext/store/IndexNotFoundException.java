package dev.neuraltext.store;

import dev.neuraltext.NonRetriableNeuralTextException;

/** No saved index was found where one was expected to be loaded from; build one first. */
public class IndexNotFoundException extends NonRetriableNeuralTextException {

    /** No saved index; {@code cause} may be null. */
    public IndexNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
