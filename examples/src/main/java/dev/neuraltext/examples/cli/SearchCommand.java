package dev.neuraltext.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Being written. */
@Command(name = "search", description = "Not available yet.")
final class SearchCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("neural-text search: not available yet");
        return 2;
    }
}
