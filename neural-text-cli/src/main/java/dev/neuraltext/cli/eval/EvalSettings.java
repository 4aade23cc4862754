package dev.neuraltext.cli.eval;

import java.nio.file.Path;
import dev.neuraltext.onnx.DenseModels;
import dev.neuraltext.retrieve.DenseText;
import dev.neuraltext.retrieve.RepositoryRanking;
import java.util.List;
import java.util.Objects;

/**
 * What {@link EvalHarness} runs.
 *
 * @param dataset       the BEIR dataset folder
 * @param split         the qrels split (default {@code test})
 * @param techniques    neural-text techniques to run; empty = every one the encoders allow
 * @param peers         peers to run ({@code lucene-standard}, {@code lucene-wdgf}, {@code langchain4j-minilm});
 *                      their RRF ({@code peers-rrf}) is added when the last two both run
 * @param sliceBy       query metadata keys to slice by (e.g. {@code type}, {@code shape})
 * @param k             the cut of MRR/nDCG and the adaptive limit (default 10)
 * @param depth         results retrieved per query by fixed-cut techniques (default 100)
 * @param out           the report folder, or null for no files
 * @param dense         whether to run the dense leg (the {@code model} preset through ONNX Runtime)
 * @param spladeModel   a SPLADE model folder, or null
 * @param rerankerModel a cross-encoder model folder, or null
 * @param alpha         the dense weight of {@code hybrid-weighted} (default 0.5)
 * @param warmup        queries run unmeasured before each technique (default 20)
 * @param cacheDir      where document embeddings are cached, or null for no disk cache
 * @param baseline      the technique every other is compared with head-to-head (default {@code bm25})
 * @param compare       extra head-to-head pairs {@code a:b} (any two technique or peer names)
 * @param model         the dense model id (one of {@link DenseModels#ids()}; default {@code all-minilm-l6-v2})
 * @param denseText     what the dense leg embeds of each document
 * @param previousDefault whether to run the library's previous default beside {@code hybrid}, interleaved
 * @param ranking       the ranking stage of every technique ({@link RepositoryRanking#off()}, the library's default,
 *                      or {@link RepositoryRanking#wholeRepository()}, the command line's)
 */
record EvalSettings(Path dataset, String split, List<String> techniques, List<String> peers, List<String> sliceBy,
        int k, int depth, Path out, boolean dense, Path spladeModel, Path rerankerModel, double alpha, int warmup,
        Path cacheDir, String baseline, List<String> compare, String model, DenseText denseText,
        boolean previousDefault, RepositoryRanking ranking) {

    static final List<String> ALL_PEERS = List.of("grep", "lucene-standard", "lucene-wdgf",
            "langchain4j-minilm");

    EvalSettings {
        techniques = List.copyOf(techniques);
        peers = List.copyOf(peers);
        sliceBy = List.copyOf(sliceBy);
        compare = List.copyOf(compare);
        DenseModels.checkId(model); // names the value and the known ids when unknown
        Objects.requireNonNull(denseText, "denseText");
        Objects.requireNonNull(ranking, "ranking");
        for (String pair : compare) {
            if (pair.split(":", -1).length != 2 || pair.startsWith(":") || pair.endsWith(":")) {
                throw new IllegalArgumentException("--compare expects pairs a:b, got '" + pair + "'");
            }
        }
        for (String p : peers) {
            if (!ALL_PEERS.contains(p)) {
                throw new IllegalArgumentException("unknown peer '" + p + "', expected one of " + ALL_PEERS);
            }
        }
        if (k <= 0) {
            throw new IllegalArgumentException("k must be > 0, got " + k);
        }
        if (depth < k) {
            throw new IllegalArgumentException("depth must be >= k (" + k + "), got " + depth);
        }
        if (!(alpha >= 0 && alpha <= 1)) {
            throw new IllegalArgumentException("alpha must be in [0, 1], got " + alpha);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("warmup must be >= 0, got " + warmup);
        }
    }
}
