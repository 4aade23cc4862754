package dev.neuraltext.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Being written. */
@Command(name = "bench", description = "Not available yet.")
final class BenchCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("neural-text bench: not available yet");
        return 2;
    }
}
