package dev.neuraltext.cli;

import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.NeuralTextException;
import dev.neuraltext.cli.eval.EvalMain;
import dev.neuraltext.onnx.DenseModels;
import dev.neuraltext.retrieve.DenseText;
import dev.neuraltext.retrieve.RepositoryRanking;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code neural-text eval}: techniques and peers on a BEIR dataset, with Markdown, JSON and HTML reports. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Evaluate retrieval techniques (and peers) on a BEIR-format dataset: metrics overall and per "
                + "slice, latency, head-to-head tests; writes report.md, report.json and report.html.",
            "Techniques: bm25, dense, sparse, hybrid, hybrid-switch, hybrid-rrf, hybrid-weighted, each optionally "
                + "+rerank and/or +adaptive (default: every one the configured encoders allow)."})
final class EvalCommand implements Callable<Integer> {

    @Option(names = "--dataset", split = ",", paramLabel = "<dir>",
            description = "BEIR folder(s): corpus.jsonl, queries.jsonl, qrels/<split>.tsv; several, comma-separated, "
                    + "give one combined table plus a report per dataset in <out>/<dataset name>")
    List<Path> datasets = new ArrayList<>();

    @Option(names = "--semble", paramLabel = "<roots.tsv>", description = "run the semble-dev whole-repository "
            + "benchmark instead: name<TAB>language<TAB>folder-to-index per repository (see SembleDataset)")
    Path semble;

    @Option(names = "--swebench", paramLabel = "<instances.jsonl>", description = "run issue-to-file localization "
            + "instead (SWE-bench protocol): one JSON object a line with instance_id, repo, mirror, base_commit, "
            + "created_at, problem_statement, gold_files; needs --mirrors")
    Path swebench;

    @Option(names = "--related", paramLabel = "<roots.tsv>", description = "evaluate find_related instead: per "
            + "repository of the roots file (as --semble reads it), definitions and the other files that name them "
            + "(generated, see docs/benchmarks.md), against grep")
    Path related;

    @Option(names = "--related-per-repo", paramLabel = "<n>", defaultValue = "30", description = "with --related: "
            + "definitions sampled per repository (default: ${DEFAULT-VALUE})")
    int relatedPerRepo;

    @Option(names = "--seed", paramLabel = "<n>", defaultValue = "36", description = "with --related: the sampling "
            + "seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--mirrors", paramLabel = "<dir>", description = "with --swebench: folder of git mirrors, "
            + "<owner>+<name>/repo each")
    Path mirrors;

    @Option(names = "--work", paramLabel = "<dir>", description = "with --swebench: where the work trees are checked "
            + "out, one per repository (default: <out>/work-trees, or ./swebench-work)")
    Path work;

    @Option(names = "--annotations", paramLabel = "<dir>", description = "with --semble: folder of <name>.json questions")
    Path annotations;

    @Option(names = "--published", paramLabel = "<tsv>", description = "with --semble: the peer's published.tsv "
            + "(default: beside the annotations folder)")
    Path published;

    @Option(names = "--latency-repeats", paramLabel = "<n>", defaultValue = "5", description = "with --semble: "
            + "time each question this many times per system and keep the median (default: ${DEFAULT-VALUE})")
    int latencyRepeats;

    @Option(names = "--repos", split = ",", paramLabel = "<name>", description = "with --semble, --swebench or --related: only "
            + "these repositories")
    List<String> repos = new ArrayList<>();

    @Option(names = "--model", paramLabel = "<preset>", description = DenseModel.MODEL_HELP)
    String model;

    @Option(names = "--dense-text", paramLabel = "<variant>",
            description = "what the dense leg embeds: chunk, header, header-head (default: the library's)")
    String denseText;

    @Option(names = "--split", defaultValue = "test", description = "qrels split (default: ${DEFAULT-VALUE})")
    String split;

    @Option(names = "--techniques", split = ",", paramLabel = "<name>",
            description = "comma-separated techniques: bm25, dense, sparse, hybrid (the library default, graded "
                    + "fusion), hybrid-switch (the former identifier/sentence switch), hybrid-rrf, hybrid-weighted, "
                    + "each optionally followed by +rerank and/or +adaptive "
                    + "(e.g. hybrid,hybrid-rrf+adaptive); 'none' for peers only")
    List<String> techniques = new ArrayList<>();

    @Option(names = "--peers", arity = "0..1", split = ",", fallbackValue = "all", paramLabel = "<peer>",
            description = "also run peers: grep, lucene-standard, lucene-wdgf, langchain4j-minilm (all when no list)")
    List<String> peers = new ArrayList<>();

    @Option(names = "--slice-by", split = ",", defaultValue = "type", paramLabel = "<key>",
            description = "query metadata keys to slice by (default: ${DEFAULT-VALUE})")
    List<String> sliceBy;

    @Option(names = "--k", defaultValue = "10", description = "cut of MRR/nDCG and the adaptive limit (default: ${DEFAULT-VALUE})")
    int k;

    @Option(names = "--depth", defaultValue = "100", description = "results retrieved per query (default: ${DEFAULT-VALUE})")
    int depth;

    @Option(names = "--out", paramLabel = "<dir>", description = "report folder (default: eval-report)")
    Path out = Path.of("eval-report");

    @Option(names = "--no-dense", description = "skip the dense leg (no model load)")
    boolean noDense;

    @Option(names = "--splade-model", paramLabel = "<dir>", description = "SPLADE model folder for the sparse leg")
    Path spladeModel;

    @Option(names = "--reranker-model", paramLabel = "<dir>", description = "cross-encoder model folder for +rerank")
    Path rerankerModel;

    @Option(names = "--alpha", defaultValue = "0.5", description = "dense weight of hybrid-weighted (default: ${DEFAULT-VALUE})")
    double alpha;

    @Option(names = "--warmup", defaultValue = "20", description = "unmeasured queries per technique (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--baseline", defaultValue = "bm25",
            description = "technique the others are compared with head-to-head (default: ${DEFAULT-VALUE})")
    String baseline;

    @Option(names = "--compare", split = ",", paramLabel = "<a:b>",
            description = "extra head-to-head pairs, e.g. hybrid-rrf:peers-rrf,dense:langchain4j-minilm")
    List<String> compare = new ArrayList<>();

    @Option(names = "--cache-dir", paramLabel = "<dir>",
            description = "document embedding cache (default: ~/.cache/neural-text/embeddings)")
    Path cacheDir;

    @Option(names = "--no-cache", description = "do not cache document embeddings on disk")
    boolean noCache;

    @Option(names = "--ranking", paramLabel = "<stage>", defaultValue = "off", description = "the ranking stage "
            + "every technique searches with: off (the library's default) or whole-repository (the command line's and "
            + "the MCP server's; default: ${DEFAULT-VALUE})")
    String ranking;

    @Option(names = "--previous-default", description = "also run the previous default (all-MiniLM-L6-v2, chunk "
            + "text, shape switch) beside hybrid, query by query in turn, so their latencies compare")
    boolean previousDefault;

    @Option(names = "--quiet", description = "no progress output")
    boolean quiet;

    @Override
    public Integer call() {
        if (semble != null) {
            return callSemble();
        }
        if (swebench != null) {
            return callSwebench();
        }
        if (related != null) {
            return reported(() -> dev.neuraltext.cli.eval.RelatedMain.run(related, repos, relatedPerRepo, seed, out,
                    System.out, System.err));
        }
        if (datasets.isEmpty()) {
            System.err.println("neural-text eval: give --dataset <dir> (BEIR), --semble <roots.tsv> --annotations <dir> "
                    + "or --swebench <instances.jsonl> --mirrors <dir>");
            return CliException.USAGE;
        }
        for (Path dataset : datasets) {
            if (!java.nio.file.Files.isRegularFile(dataset.resolve("corpus.jsonl"))) {
                System.err.println("neural-text eval: no corpus.jsonl in " + dataset.toAbsolutePath()
                        + ": --dataset takes a BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)");
                return CliException.USAGE;
            }
        }
        return reported(() -> {
            List<String> peerList = new ArrayList<>();
            for (String p : peers) {
                if (p.equals("all")) {
                    peerList.addAll(EvalMain.ALL_PEERS);
                } else if (!p.isBlank() && !peerList.contains(p.trim())) {
                    peerList.add(p.trim());
                }
            }
            Path cache = cacheFolder();
            return EvalMain.run(datasets, split, techniques, peerList, sliceBy, k, depth, out, !noDense, spladeModel,
                    rerankerModel, alpha, warmup, cache, baseline, compare,
                    model == null ? DenseModel.DEFAULT_MODEL : DenseModels.checkId(model),
                    denseText == null ? DenseText.defaults() : DenseText.byId(denseText), ranking(ranking),
                    previousDefault, quiet, System.out, System.err);
        });
    }

    private Integer callSemble() {
        if (annotations == null || !java.nio.file.Files.isDirectory(annotations)) {
            System.err.println("neural-text eval: --semble needs --annotations <dir> (a folder of <name>.json), got "
                    + annotations);
            return CliException.USAGE;
        }
        return reported(() -> dev.neuraltext.cli.eval.SembleMain.run(semble, annotations, published, repos,
                noDense ? null : model == null ? DenseModel.DEFAULT_MODEL : DenseModels.checkId(model),
                cacheFolder(), peers.contains("grep") || peers.contains("all"), latencyRepeats, out, System.out,
                System.err));
    }

    /** {@code --ranking}: the stage it names, or a usage error naming the value. */
    static RepositoryRanking ranking(String value) {
        return switch (value) {
            case "off" -> RepositoryRanking.off();
            case "whole-repository" -> RepositoryRanking.wholeRepository();
            default -> throw new IllegalArgumentException("--ranking must be off or whole-repository, got '" + value
                    + "'");
        };
    }

    private Integer callSwebench() {
        if (mirrors == null || !java.nio.file.Files.isDirectory(mirrors)) {
            System.err.println("neural-text eval: --swebench needs --mirrors <dir> (a folder of <owner>+<name>/repo git "
                    + "mirrors), got " + mirrors);
            return CliException.USAGE;
        }
        Path trees = work != null ? work : out != null ? out.resolve("work-trees") : Path.of("swebench-work");
        return reported(() -> dev.neuraltext.cli.eval.SwebenchMain.run(swebench, mirrors, trees, repos,
                noDense ? null : model == null ? DenseModel.DEFAULT_MODEL : DenseModels.checkId(model),
                cacheFolder(), peers.contains("grep") || peers.contains("all"), out, System.out, System.err));
    }

    private Path cacheFolder() {
        return noCache ? null : cacheDir != null ? cacheDir
                : Path.of(System.getProperty("user.home"), ".cache", "neural-text", "embeddings");
    }

    /** Runs {@code body}, turning bad options into exit 2 and failures into exit 1, each said on stderr. */
    private static Integer reported(java.util.function.IntSupplier body) {
        try {
            return body.getAsInt();
        } catch (IllegalArgumentException e) {
            System.err.println("neural-text eval: " + e.getMessage());
            return CliException.USAGE;
        } catch (NeuralTextException e) {
            System.err.println("neural-text eval: " + e.getMessage());
            return CliException.FAILURE;
        }
    }
}
