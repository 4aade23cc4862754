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

    /** Held strongly: java.util.logging forgets the level of a logger that is garbage collected. */
    private static final java.util.logging.Logger GRPC_LOGGER = java.util.logging.Logger.getLogger("io.grpc");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        quietLogging();
        System.exit(run(args));
    }

    /**
     * Warnings and errors only, without thread names, and nothing from DJL's platform probing (GPU detection notes):
     * the command line's own output is the answer. Explicit -Dorg.slf4j.simpleLogger.* settings win.
     */
    static void quietLogging() {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.log.ai.djl", "error");
        // the Qdrant client logs each failed call with a stack trace; the store rethrows it with a message we print
        setIfAbsent("org.slf4j.simpleLogger.log.io.qdrant", "off");
        GRPC_LOGGER.setLevel(java.util.logging.Level.WARNING);
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showLogName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
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
