package dev.neuraltext.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Being written. */
@Command(name = "index", description = "Not available yet.")
final class IndexCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("neural-text index: not available yet");
        return 2;
    }
}
