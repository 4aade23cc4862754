package dev.neuraltext.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Being written. */
@Command(name = "eval", description = "Not available yet.")
final class EvalCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("neural-text eval: not available yet");
        return 2;
    }
}
