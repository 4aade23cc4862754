package dev.neuraltext.examples.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code neural-text} command line: index a folder, search it, evaluate retrieval, benchmark against peers. */
@Command(
        name = "neural-text",
        mixinStandardHelpOptions = true,
        version = "neural-text 0.1.0-SNAPSHOT",
        description = "Hybrid retrieval over source code and technical text.",
        subcommands = {
            IndexCommand.class,
            SearchCommand.class,
            DemoCommand.class,
            EvalCommand.class,
            BenchCommand.class,
            CommandLine.HelpCommand.class
        })
public final class NeuralTextCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (for tests). */
    public static int run(String... args) {
        return new CommandLine(new NeuralTextCli()).execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
