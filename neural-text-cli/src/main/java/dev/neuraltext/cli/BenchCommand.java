package dev.neuraltext.cli;

import dev.neuraltext.cli.bench.Bm25Benchmark;
import dev.neuraltext.cli.bench.EmbeddingBenchmark;
import dev.neuraltext.cli.bench.ScaleBenchmark;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code neural-text bench}: performance side by side with the peer in the same run, reported as ratios.
 * {@code bench bm25} compares our BM25 index with Lucene 9.12 (WordDelimiterGraphFilter analyzer);
 * {@code bench embed} compares our ONNX MiniLM embedder with LangChain4j's in-process one;
 * {@code bench scale} compares the embedded store with Lucene BM25, HNSW and an exact scan on a synthetic corpus of
 * any size.
 */
@Command(
        name = "bench",
        description = "Benchmarks against peers in the same run (reported as ratios).",
        mixinStandardHelpOptions = true,
        subcommands = {BenchCommand.Bm25.class, BenchCommand.Embed.class, BenchCommand.Scale.class})
final class BenchCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("neural-text bench: name a benchmark: bm25 (vs Lucene), embed (vs LangChain4j) or scale"
                + " (vs Lucene BM25 and HNSW at any size);"
                + " add --help after it for its options");
        return 2;
    }

    @Command(name = "bm25", description = "BM25 indexing and query latency vs Lucene 9.12 on a BEIR dataset."
            + " Options: --dataset DIR [--builds N] [--warmup N] [--passes N] [--limit K]")
    static final class Bm25 implements Callable<Integer> {
        @Unmatched
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() {
            return Bm25Benchmark.run(args.toArray(String[]::new));
        }
    }

    @Command(name = "embed", description = "Embedding throughput vs LangChain4j's all-MiniLM-L6-v2 on a BEIR corpus."
            + " Options: --corpus corpus.jsonl [--limit N] [--call-size N] [--warmup N] [--preset P] [--only ours]"
            + " [--static]")
    static final class Embed implements Callable<Integer> {
        @Unmatched
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() {
            return EmbeddingBenchmark.run(args.toArray(String[]::new));
        }
    }

    @Command(name = "scale", description = "The embedded store vs Lucene 9.12 BM25, HNSW (float, int8) and an exact"
            + " scan on a synthetic corpus of N documents. Options: --dataset DIR [--docs N] [--queries N] [--dim N]"
            + " [--limit K] [--leg-limit K] [--warmup N] [--passes N] [--no-dense] [--no-hnsw] [--json FILE]")
    static final class Scale implements Callable<Integer> {
        @Unmatched
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() {
            return ScaleBenchmark.run(args.toArray(String[]::new));
        }
    }
}
