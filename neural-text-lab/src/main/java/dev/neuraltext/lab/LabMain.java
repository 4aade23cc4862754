package dev.neuraltext.lab;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.cli.eval.ProgressBar;
import dev.neuraltext.cli.eval.ReportWriter;
import dev.neuraltext.cli.eval.SembleDataset;
import dev.neuraltext.cli.eval.SembleHarness;
import dev.neuraltext.eval.EvalRunner;
import dev.neuraltext.eval.MetricSuite;
import dev.neuraltext.retrieve.DenseText;
import dev.neuraltext.retrieve.GradedFusion;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * The lab's command line (module {@code neural-text-lab}, never shipped): fitting the ranking stage's weights on
 * semble-dev ({@code fit-ranking}), fitting the graded fusion across BEIR datasets with the ablations beyond the leg
 * weights ({@code fit-fusion}), and the embedding throughput of every preset ({@code presets}). The commands are in
 * {@code neural-text-lab/README.md}. Exit codes: 0 ok, 1 failure, 2 bad input.
 */
@Command(name = "neural-text-lab", mixinStandardHelpOptions = true,
        description = "Fitting and measurement for neural-text's developers (not part of the tool).",
        subcommands = {LabMain.FitRanking.class, LabMain.FitFusion.class, LabMain.Presets.class,
            CommandLine.HelpCommand.class})
public final class LabMain implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the lab's command line and returns the exit code (for tests). */
    public static int run(String... args) {
        return new CommandLine(new LabMain()).execute(args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return 2;
    }

    /** Options both fits share (a picocli mixin): the dense model and the embedding cache. */
    static final class ModelOptions {
        @Option(names = "--model", paramLabel = "<preset>", description = DenseModel.MODEL_HELP)
        String model;

        @Option(names = "--cache-dir", paramLabel = "<dir>",
                description = "document embedding cache (default: ~/.cache/neural-text/embeddings)")
        Path cacheDir;

        @Option(names = "--no-cache", description = "do not cache document embeddings on disk")
        boolean noCache;

        String preset() {
            return model == null ? DenseModel.DEFAULT_MODEL : model;
        }

        Path cacheFolder() {
            return noCache ? null : cacheDir != null ? cacheDir
                    : Path.of(System.getProperty("user.home"), ".cache", "neural-text", "embeddings");
        }
    }

    @Command(name = "fit-ranking", mixinStandardHelpOptions = true,
            description = "Fit RepositoryRanking's weights on semble-dev: in sample and leave-one-language-out; "
                    + "writes <out>/ranking-fit.md (what `neural-text eval --semble ... --fit-ranking` did).")
    static final class FitRanking implements Callable<Integer> {

        @Option(names = "--semble", required = true, paramLabel = "<roots.tsv>",
                description = "name<TAB>language<TAB>folder-to-index per repository")
        Path roots;

        @Option(names = "--annotations", required = true, paramLabel = "<dir>",
                description = "folder of <name>.json questions")
        Path annotations;

        @Option(names = "--published", paramLabel = "<tsv>",
                description = "the peer's published.tsv (default: beside the annotations folder)")
        Path published;

        @Option(names = "--repos", split = ",", paramLabel = "<name>", description = "only these repositories")
        List<String> repos = new ArrayList<>();

        @Option(names = "--no-dense", description = "candidates of BM25 alone (no model load)")
        boolean noDense;

        @CommandLine.Mixin
        ModelOptions models;

        @Option(names = "--out", paramLabel = "<dir>", defaultValue = "eval-report",
                description = "report folder (default: ${DEFAULT-VALUE})")
        Path out;

        @Option(names = "--method", defaultValue = "steepest", description = "steepest, ascent, linear, "
                + "linear+ascent or bagged (default: ${DEFAULT-VALUE})")
        String method;

        @Option(names = "--min-gain", defaultValue = "0.002", description = "mean NDCG@10 a weight must gain to "
                + "leave 0 (default: ${DEFAULT-VALUE})")
        double minGain;

        @Option(names = "--bags", defaultValue = "10", description = "bootstrap samples of --method bagged "
                + "(default: ${DEFAULT-VALUE})")
        int bags;

        @Option(names = "--lambda", defaultValue = "0.001", description = "L2 penalty of --method linear "
                + "(default: ${DEFAULT-VALUE})")
        double lambda;

        @Option(names = "--dump", paramLabel = "<file>", description = "write every question's top 10 with its "
                + "signals under the weights fitted on all")
        Path dump;

        @Override
        public Integer call() {
            return guard("fit-ranking", () -> {
                SembleRankFit.Options options = new SembleRankFit.Options(method, minGain, bags, lambda, dump);
                Path pub = published != null ? published
                        : annotations.toAbsolutePath().normalize().getParent() == null ? null
                        : annotations.toAbsolutePath().normalize().getParent().resolve("published.tsv");
                SembleDataset dataset = SembleDataset.load(roots, annotations, pub, repos);
                SembleRankFit fit = new SembleRankFit(System.err, options);
                String text = fit.report(SembleHarness.withEmbedder(noDense ? null : models.preset(),
                        models.cacheFolder(), cache -> fit.prepare(dataset, cache)));
                System.out.print(text);
                System.err.println("wrote " + ReportWriter.writeText(out.resolve("ranking-fit.md"), text));
                return 0;
            });
        }
    }

    @Command(name = "fit-fusion", mixinStandardHelpOptions = true,
            description = "Fit the graded fusion leave-one-dataset-out over BEIR datasets, then measure what ranking "
                    + "adds beyond the leg weights; writes <out>/fusion-fit.md (what `neural-text eval --fit-fusion` "
                    + "did).")
    static final class FitFusion implements Callable<Integer> {

        @Option(names = "--dataset", required = true, split = ",", paramLabel = "<dir>",
                description = "BEIR folders (corpus.jsonl, queries.jsonl, qrels/<split>.tsv), comma-separated")
        List<Path> datasets = new ArrayList<>();

        @Option(names = "--split", defaultValue = "test", description = "qrels split (default: ${DEFAULT-VALUE})")
        String split;

        @Option(names = "--dense-text", paramLabel = "<variant>",
                description = "what the dense leg embeds: chunk, header, header-head (default: the library's)")
        String denseText;

        @CommandLine.Mixin
        ModelOptions models;

        @Option(names = "--k", defaultValue = "10", description = "cut of MRR (default: ${DEFAULT-VALUE})")
        int k;

        @Option(names = "--slice-by", split = ",", defaultValue = "type", paramLabel = "<key>",
                description = "query metadata keys to slice by (default: ${DEFAULT-VALUE})")
        List<String> sliceBy;

        @Option(names = "--dense-windows", paramLabel = "<chars>",
                description = "also a dense leg over windows of this many characters (it was -Dnt.denseWindows)")
        Integer denseWindows;

        @Option(names = "--second-dense", paramLabel = "<preset>",
                description = "also a second exhaustive dense leg with this preset (it was -Dnt.secondDense)")
        String secondDense;

        @Option(names = "--out", paramLabel = "<dir>", defaultValue = "eval-report",
                description = "report folder (default: ${DEFAULT-VALUE})")
        Path out;

        @Option(names = "--quiet", description = "no progress output")
        boolean quiet;

        @Override
        public Integer call() {
            return guard("fit-fusion", () -> {
                if (k <= 0) {
                    throw new IllegalArgumentException("--k must be > 0, got " + k);
                }
                DenseText text = denseText == null ? DenseText.defaults() : DenseText.byId(denseText);
                List<FusionLegs> inputs = new ArrayList<>();
                for (Path d : datasets) {
                    inputs.add(new FusionLegs(d, split, models.preset(), text, models.cacheFolder(), denseWindows,
                            secondDense));
                }
                ProgressBar bar = quiet ? ProgressBar.silent() : ProgressBar.stderr();
                PrintStream log = quiet ? new PrintStream(OutputStream.nullOutputStream()) : System.err;
                FusionFit fit = new FusionFit(EvalRunner.builder().metrics(MetricSuite.withK(k)).build());
                List<FusionFit.DatasetLegs> legs = new ArrayList<>();
                for (FusionLegs input : inputs) {
                    legs.add(input.collect(bar, log));
                }
                String report = fit.report(legs, bar) + fit.slices(legs, GradedFusion.defaults(), sliceBy);
                if (!fit.fittedOnAll().equals(GradedFusion.defaults())) {
                    report += fit.slices(legs, fit.fittedOnAll(), sliceBy);
                }
                report += new BeyondWeights(fit, GradedFusion.defaults()).report(legs);
                System.out.print(report);
                System.err.println("wrote " + ReportWriter.writeText(out.resolve("fusion-fit.md"), report));
                return 0;
            });
        }
    }

    @Command(name = "presets", description = "Document embedding throughput of every dense model preset and dense"
            + " text variant, side by side (it was `neural-text bench presets`). Options: --dataset DIR (required)"
            + " [--limit N] [--slice N] [--models a,b] [--dense-text chunk,header,header-head]")
    static final class Presets implements Callable<Integer> {
        @Unmatched
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() {
            return PresetThroughput.run(args.toArray(String[]::new));
        }
    }

    /** Runs {@code body}: bad input is exit 2, a run-time failure exit 1, each said on stderr in one line. */
    static int guard(String command, Callable<Integer> body) {
        try {
            return body.call();
        } catch (IllegalArgumentException e) {
            System.err.println("neural-text-lab " + command + ": " + e.getMessage());
            return 2;
        } catch (NeuralTextException e) {
            System.err.println("neural-text-lab " + command + ": " + e.getMessage());
            return 1;
        } catch (Exception e) {
            System.err.println("neural-text-lab " + command + ": unexpected failure: " + e);
            e.printStackTrace(System.err); // the lab's users are its developers: the trace helps
            return 1;
        }
    }
}
