package dev.neuraltext;

/** A failure that may go away if the same operation is repeated: a store that is unavailable, a deadline that passed. */
public class RetriableNeuralTextException extends NeuralTextException {

    public RetriableNeuralTextException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
