package dev.neuraltext.examples.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Being written. */
@Command(name = "demo", description = "Not available yet.")
final class DemoCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("neural-text demo: not available yet");
        return 2;
    }
}
