package dev.neuraltext.examples.eval;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Entry point of the evaluation harness for the command line ({@code neural-text eval}): runs {@link EvalHarness},
 * prints the Markdown report and writes the report files.
 */
public final class EvalMain {

    /** The peers {@code --peers} runs when given no list. */
    public static final List<String> ALL_PEERS = EvalSettings.ALL_PEERS;

    private EvalMain() {
    }

    /**
     * Runs an evaluation and returns the exit code (0). See {@code neural-text eval --help} for the parameters.
     *
     * @throws IllegalArgumentException for bad options (unknown technique or peer, missing encoder)
     * @throws dev.neuraltext.NeuralTextException when the dataset, a model or the report cannot be read or written
     */
    public static int run(Path dataset, String split, List<String> techniques, List<String> peers,
            List<String> sliceBy, int k, int depth, Path out, boolean dense, Path spladeModel, Path rerankerModel,
            double alpha, int warmup, Path cacheDir, String baseline, List<String> compare, boolean quiet,
            PrintStream stdout,
            PrintStream stderr) {
        EvalSettings settings = new EvalSettings(dataset, split, techniques, peers, sliceBy, k, depth, out, dense,
                spladeModel, rerankerModel, alpha, warmup, cacheDir, baseline, compare);
        ProgressBar bar = quiet ? ProgressBar.silent() : new ProgressBar(stderr, System.console() != null);
        EvalReport report = new EvalHarness(settings, bar, quiet ? new PrintStream(
                java.io.OutputStream.nullOutputStream()) : stderr).run();
        stdout.print(ReportWriter.markdown(report));
        if (out != null) {
            List<Path> files = ReportWriter.writeAll(report, out);
            stderr.println("wrote " + files);
        }
        return 0;
    }
}
