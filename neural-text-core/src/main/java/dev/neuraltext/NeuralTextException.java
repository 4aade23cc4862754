package dev.neuraltext;

/**
 * Root of the run-time failures neural-text reports: a model that cannot be loaded, a store that cannot be
 * reached, an index file that is corrupt. Caller mistakes (bad arguments, wrong state) are reported with
 * {@link IllegalArgumentException}, {@link IllegalStateException} and {@link NullPointerException} instead.
 *
 * <p>Use {@link #isRetriable()} to decide whether the same call may succeed later: {@link RetriableNeuralTextException}
 * (a store that is unavailable, a deadline that passed) or {@link NonRetriableNeuralTextException} (a corrupt file, an
 * incompatible model). The cause is always attached.
 */
public abstract class NeuralTextException extends RuntimeException {

    protected NeuralTextException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether repeating the failed operation unchanged may succeed. */
    public abstract boolean isRetriable();
}
