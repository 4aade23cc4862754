package dev.neuraltext.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code neural-text} command line: index a folder, search it, evaluate retrieval, benchmark against peers. */
@Command(
        name = "neural-text",
        mixinStandardHelpOptions = true,
        version = "neural-text 0.1.0-SNAPSHOT",
        description = "Hybrid retrieval over source code and technical text.",
        exitCodeListHeading = "%nExit codes (every command):%n",
        exitCodeList = {"0:ok", "1:failure (I/O error, index busy with another writer, unexpected error)",
            "2:bad input (no command, unknown option, missing folder or dataset, invalid glob or filter)",
            "3:unusable index (missing, unreadable, built with another model)"},
        subcommands = {
            IndexCommand.class,
            SearchCommand.class,
            RelatedCommand.class,
            CheckCommand.class,
            DemoCommand.class,
            EvalCommand.class,
            BenchCommand.class,
            dev.neuraltext.mcp.McpCommand.class,
            CommandLine.HelpCommand.class
        })
public final class NeuralTextCli implements Callable<Integer> {

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

    /**
     * Runs the command line and returns the exit code (for tests): 0 ok, 1 failure, 2 bad input, 3 unusable index,
     * for every command. An exception a command lets escape becomes one line on stderr and exit 1, never a stack
     * trace (set {@code NEURAL_TEXT_DEBUG=1} to see it).
     */
    public static int run(String... args) {
        return new CommandLine(new NeuralTextCli())
                // an unknown option or a malformed value is bad input (2), as the exit code list says; anything else 1
                .setExitCodeExceptionMapper(t -> t instanceof CommandLine.ParameterException ? CliException.USAGE
                        : CliException.FAILURE)
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    System.err.println(cmd.getCommandName() + ": unexpected failure: " + e
                            + " (set NEURAL_TEXT_DEBUG=1 for the stack trace)");
                    if (System.getenv("NEURAL_TEXT_DEBUG") != null) {
                        e.printStackTrace(System.err);
                    }
                    return CliException.FAILURE;
                })
                .execute(args);
    }

    /** No command: the usage on stderr, and exit 2 (bad input), so that a script notices. */
    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return CliException.USAGE;
    }
}
