package dev.neuraltext.eval;

import dev.neuraltext.NonRetriableNeuralTextException;
import java.nio.file.Path;

/**
 * A dataset file that cannot be read as the format requires; the message starts with {@code file:line:}.
 * {@link #line()} is 0 when the failure is not tied to a line (a missing file, an I/O error).
 */
public final class DatasetFormatException extends NonRetriableNeuralTextException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long line;

    public DatasetFormatException(Path file, long line, String message, Throwable cause) {
        super(file + (line > 0 ? ":" + line : "") + ": " + message, cause);
        this.file = file;
        this.line = line;
    }

    /** The file that failed. */
    public Path file() {
        return file;
    }

    /** The 1-based line number, or 0 when the failure concerns the whole file. */
    public long line() {
        return line;
    }
}
