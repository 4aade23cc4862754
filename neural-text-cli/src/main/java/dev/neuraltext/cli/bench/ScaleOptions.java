package dev.neuraltext.cli.bench;

import dev.neuraltext.store.DenseSearch;
import dev.neuraltext.store.HnswParams;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of {@code neural-text bench scale} ({@link ScaleBenchmark}): its options, parsing and usage. */
record ScaleOptions(Path dataset, int docs, int queries, int dimension, int limit, int legLimit, int warmup,
        int passes, boolean dense, boolean hnsw, Path json, long seed, SyntheticCorpus.Vectors vectors,
        DenseSearch denseSearch, HnswParams hnswParams, List<Integer> efSweep) {

    static ScaleOptions parse(String... args) {
        Path dataset = null;
        int docs = 100_000;
        int queries = 1000;
        int dimension = 384;
        int limit = 20;
        int legLimit = 100;
        int warmup = 1;
        int passes = 2;
        boolean dense = true;
        boolean hnsw = true;
        Path json = null;
        long seed = 42;
        SyntheticCorpus.Vectors vectors = SyntheticCorpus.Vectors.CLUSTERED;
        DenseSearch denseSearch = DenseSearch.AUTO;
        HnswParams defaults = HnswParams.defaults();
        int m = defaults.maxConnections();
        int beamWidth = defaults.beamWidth();
        int efSearch = defaults.efSearch();
        int buildThreads = defaults.buildThreads();
        int efScale = defaults.efSearchScale();
        List<Integer> efSweep = List.of();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--dataset" -> dataset = Path.of(args[++i]);
                case "--docs" -> docs = BenchOptions.positive(args[++i], a);
                case "--queries" -> queries = BenchOptions.positive(args[++i], a);
                case "--dim" -> dimension = BenchOptions.positive(args[++i], a);
                case "--limit" -> limit = BenchOptions.positive(args[++i], a);
                case "--leg-limit" -> legLimit = BenchOptions.positive(args[++i], a);
                case "--warmup" -> warmup = BenchOptions.nonNegative(args[++i], a);
                case "--passes" -> passes = BenchOptions.positive(args[++i], a);
                case "--no-dense" -> dense = false;
                case "--no-hnsw" -> hnsw = false;
                case "--json" -> json = Path.of(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--vectors" -> vectors = vectorsOption(args[++i]);
                case "--dense-search" -> denseSearch = denseSearchOption(args[++i]);
                case "--hnsw-m" -> m = BenchOptions.positive(args[++i], a);
                case "--hnsw-beam" -> beamWidth = BenchOptions.positive(args[++i], a);
                case "--hnsw-ef" -> efSearch = BenchOptions.positive(args[++i], a);
                case "--hnsw-threads" -> buildThreads = BenchOptions.positive(args[++i], a);
                case "--hnsw-ef-scale" -> efScale = BenchOptions.nonNegative(args[++i], a);
                case "--ef-sweep" -> efSweep = efList(args[++i], a);
                case "--help", "-h" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option: " + a);
            }
        }
        if (legLimit < limit) {
            throw new IllegalArgumentException("--leg-limit must be >= --limit (" + limit + "), got " + legLimit);
        }
        dataset = BenchOptions.required(dataset, "--dataset");
        return new ScaleOptions(dataset, docs, queries, dimension, limit, legLimit, warmup, passes, dense, dense && hnsw,
                json, seed, vectors, denseSearch, new HnswParams(m, beamWidth, efSearch, buildThreads, efScale), efSweep);
    }

    private static List<Integer> efList(String value, String option) {
        List<Integer> out = new ArrayList<>();
        for (String part : value.split(",")) {
            int ef = BenchOptions.positive(part.trim(), option);
            if (ef > HnswParams.MAX_BEAM) {
                throw new IllegalArgumentException(option + " values must be at most " + HnswParams.MAX_BEAM
                        + ", got " + ef);
            }
            out.add(ef);
        }
        return List.copyOf(out);
    }

    private static DenseSearch denseSearchOption(String value) {
        for (DenseSearch d : DenseSearch.values()) {
            if (d.name().equalsIgnoreCase(value)) {
                return d;
            }
        }
        throw new IllegalArgumentException("--dense-search must be auto, exact or ann, got '" + value + "'");
    }

    private static SyntheticCorpus.Vectors vectorsOption(String value) {
        return switch (value) {
            case "clustered" -> SyntheticCorpus.Vectors.CLUSTERED;
            case "random" -> SyntheticCorpus.Vectors.RANDOM;
            default -> throw new IllegalArgumentException("--vectors must be clustered or random, got '" + value + "'");
        };
    }

    static void usage(PrintStream out) {
        out.println("usage: bench scale --dataset DIR [--docs N] [--queries N] [--dim N] [--limit K] [--leg-limit K]"
                + " [--warmup N] [--passes N] [--no-dense] [--no-hnsw] [--vectors clustered|random] [--json FILE]"
                + " [--seed N] [--ef-sweep EF,...]");
        out.println("  --docs       synthetic corpus size (default 100000; 1000000 needs about -Xmx16g)");
        out.println("  --dataset    BEIR base corpus (required)");
        out.println("  --queries    queries per pass (default 1000)");
        out.println("  --dim        dense dimension of the unit vectors (default 384)");
        out.println("  --vectors    clustered (default): copy k of a document at cosine " + SyntheticCorpus.COPY_COSINE
                + " from its base, a query at " + SyntheticCorpus.QUERY_COSINE + " from its relevant base document;");
        out.println("               random: independent random unit vectors (the worst case for an ANN index)");
        out.println("  --limit      hybrid results (default 20); --leg-limit: candidates per leg (default 100)");
        out.println("  --warmup     untimed passes (default 1); --passes: timed passes (default 2)");
        out.println("  --no-dense   BM25 only; --no-hnsw: skip the Lucene HNSW builds (slow at 1M)");
        out.println("  --dense-search  auto (default: exact below " + DenseSearch.AUTO_ANN_THRESHOLD
                + " vectors, HNSW graph above), exact or ann");
        out.println("  --hnsw-m, --hnsw-beam, --hnsw-ef, --hnsw-threads, --hnsw-ef-scale  the graph's HnswParams"
                + " (defaults " + HnswParams.defaults() + "; --hnsw-ef-scale 0: a fixed beam)");
        out.println("  --ef-sweep   EF[,EF...]: after the main run, load the saved store with each efSearch and time its"
                + " dense and hybrid legs again, with recall@10 (the graph is built once)");
        out.println("  --json       also write every figure to FILE as JSON records");
    }
}
