package dev.neuraltext.cli.eval;

import dev.neuraltext.retrieve.DenseText;
import dev.neuraltext.retrieve.RepositoryRanking;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Entry point of the evaluation harness for the command line ({@code neural-text eval}): runs {@link EvalHarness} on
 * each dataset, prints the Markdown report (and, for several datasets, the {@link CombinedReport combined table}) and
 * writes the report files.
 */
public final class EvalMain {

    /** The peers {@code --peers} runs when given no list. */
    public static final List<String> ALL_PEERS = EvalSettings.ALL_PEERS;

    private EvalMain() {
    }

    /**
     * Runs an evaluation on every dataset and returns the exit code (0). With one dataset the report goes into
     * {@code out}; with several, each dataset's report goes into {@code out/<dataset folder name>} and the combined
     * table into {@code out/combined.md}. Every technique searches with {@code ranking}'s ranking stage. See
     * {@code neural-text eval --help} for the parameters.
     *
     * @throws IllegalArgumentException for bad options (unknown technique, peer or model, missing encoder, two
     *                                  datasets with the same folder name)
     * @throws dev.neuraltext.NeuralTextException when the dataset, a model or the report cannot be read or written
     */
    public static int run(List<Path> datasets, String split, List<String> techniques, List<String> peers,
            List<String> sliceBy, int k, int depth, Path out, boolean dense, Path spladeModel, Path rerankerModel,
            double alpha, int warmup, Path cacheDir, String baseline, List<String> compare, String model,
            DenseText denseText, RepositoryRanking ranking, boolean previousDefault, boolean quiet, PrintStream stdout,
            PrintStream stderr) {
        if (datasets.isEmpty()) {
            throw new IllegalArgumentException("--dataset names no folder");
        }
        Set<String> names = new HashSet<>();
        for (Path d : datasets) {
            if (!names.add(name(d))) {
                throw new IllegalArgumentException("--dataset names two folders called '" + name(d)
                        + "'; their reports would overwrite each other");
            }
        }
        List<EvalSettings> runs = new ArrayList<>();
        for (Path d : datasets) {
            Path dir = out == null ? null : datasets.size() == 1 ? out : out.resolve(name(d));
            runs.add(new EvalSettings(d, split, techniques, peers, sliceBy, k, depth, dir, dense, spladeModel,
                    rerankerModel, alpha, warmup, cacheDir, baseline, compare, model, denseText, previousDefault, ranking));
        }
        ProgressBar bar = quiet ? ProgressBar.silent() : new ProgressBar(stderr, System.console() != null);
        PrintStream log = quiet ? new PrintStream(OutputStream.nullOutputStream()) : stderr;
        List<EvalReport> reports = new ArrayList<>();
        for (EvalSettings settings : runs) {
            EvalReport report = new EvalHarness(settings, bar, log).run();
            reports.add(report);
            stdout.print(ReportWriter.markdown(report));
            if (settings.out() != null) {
                stderr.println("wrote " + ReportWriter.writeAll(report, settings.out()));
            }
        }
        if (reports.size() > 1) {
            String combined = CombinedReport.markdown(reports);
            stdout.print(combined);
            if (out != null) {
                stderr.println("wrote " + ReportWriter.writeText(out.resolve("combined.md"), combined));
            }
        }
        return 0;
    }

    private static String name(Path dataset) {
        Path n = dataset.toAbsolutePath().normalize().getFileName();
        return n == null ? dataset.toString() : n.toString();
    }
}
