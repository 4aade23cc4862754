package dev.neuraltext.cli;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.cli.limits.HeapNeed;
import java.util.concurrent.Callable;

/** Turns failures of a command into one message on stderr and an exit code; stack traces only with NEURAL_TEXT_DEBUG. */
final class Cli {

    private Cli() {
    }

    static int guard(String command, Callable<Integer> body) {
        try {
            return body.call();
        } catch (CliException e) {
            System.err.println("neural-text " + command + ": " + e.getMessage());
            return e.exitCode();
        } catch (NeuralTextException e) {
            System.err.println("neural-text " + command + ": " + e.getMessage());
            debug(e);
            return 1;
        } catch (IllegalArgumentException e) {
            System.err.println("neural-text " + command + ": " + e.getMessage());
            debug(e);
            return CliException.USAGE;
        } catch (Exception e) {
            System.err.println("neural-text " + command + ": unexpected failure: " + e
                    + " (set NEURAL_TEXT_DEBUG=1 for the stack trace)");
            debug(e);
            return 1;
        } catch (OutOfMemoryError e) {
            // the last resort: saves are atomic, so the index folder is as it was before this run
            System.err.println("neural-text " + command + ": " + HeapNeed.outOfMemory());
            debug(e);
            return 1;
        }
    }

    private static void debug(Throwable e) {
        if (System.getenv("NEURAL_TEXT_DEBUG") != null) {
            e.printStackTrace(System.err);
        }
    }

    /** Whether output goes to an interactive terminal (progress bar) rather than a file or pipe (plain lines). */
    static boolean terminal() {
        return System.console() != null;
    }
}
