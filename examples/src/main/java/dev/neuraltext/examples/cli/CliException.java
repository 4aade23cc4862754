package dev.neuraltext.examples.cli;

/** A failure the command line reports as one clear message and an exit code, never as a stack trace. */
final class CliException extends RuntimeException {

    /** Bad input: a missing folder, an empty query, a malformed filter. */
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
