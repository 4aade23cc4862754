package dev.neuraltext;

/** A failure that repeating the operation will not fix: a missing or corrupt model or index file, an incompatible schema. */
public class NonRetriableNeuralTextException extends NeuralTextException {

    public NonRetriableNeuralTextException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return false;
    }
}
