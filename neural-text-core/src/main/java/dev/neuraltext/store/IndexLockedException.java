package dev.neuraltext.store;

import dev.neuraltext.RetriableNeuralTextException;
import java.nio.file.Path;

/**
 * Another writer, in this process or another one, holds the write lock of an index folder. Retriable: try again when
 * that writer has finished. Readers never need the lock.
 */
public class IndexLockedException extends RetriableNeuralTextException {

    private final Path directory;

    /** The lock on {@code directory} is held by someone else; {@code cause} may be null. */
    public IndexLockedException(Path directory, Throwable cause) {
        super("index " + directory + " is being updated by another process; try again when it finishes", cause);
        this.directory = directory;
    }

    /** The index folder whose lock is held. */
    public Path directory() {
        return directory;
    }
}
