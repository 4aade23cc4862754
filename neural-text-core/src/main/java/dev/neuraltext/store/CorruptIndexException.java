package dev.neuraltext.store;

import dev.neuraltext.NonRetriableNeuralTextException;

/**
 * A saved index cannot be read: a file is missing, truncated, has a bad magic number, an unsupported format version,
 * or a checksum that does not match its content. The index should be rebuilt.
 */
public class CorruptIndexException extends NonRetriableNeuralTextException {

    /** A corrupt or unreadable saved index; {@code cause} may be null when the corruption was detected, not thrown. */
    public CorruptIndexException(String message, Throwable cause) {
        super(message, cause);
    }
}
