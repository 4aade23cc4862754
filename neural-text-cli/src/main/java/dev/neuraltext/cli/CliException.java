package dev.neuraltext.cli;

/**
 * A failure the command line reports as one clear message and an exit code, never as a stack trace. The exit codes,
 * the same for every command: 0 ok, 1 failure, 2 bad input, 3 unusable index.
 */
final class CliException extends RuntimeException {

    /** Success. */
    static final int OK = 0;
    /** A failure that is not the user's input: an I/O error, a busy index (another writer), a crash of a component. */
    static final int FAILURE = 1;
    /** Bad input: a missing folder, an empty query, a malformed filter, an unwritable --index, an invalid glob. */
    static final int USAGE = 2;
    /** The index cannot be used: missing, unreadable, built with another model. */
    static final int INDEX = 3;

    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
