package dev.neuraltext.examples.bench;

import dev.langchain4j.rag.query.Query;
import dev.neuraltext.eval.EvalRun;
import dev.neuraltext.examples.FolderRetriever;
import dev.neuraltext.langchain4j.NeuralTextContentRetriever;
import dev.neuraltext.springai.NeuralTextDocumentRetriever;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * Per-call cost of the two framework adapters against calling {@link HybridCaseRetriever#search} directly, in the
 * same run: the same queries, the three calls interleaved and their order rotated each round, p50 and p90 of each
 * and the adapters' p50 as a ratio to the direct call's.
 *
 * <p>Run: {@code java -cp examples/target/neural-text-examples.jar dev.neuraltext.examples.bench.AdapterOverheadBenchmark
 * [folder] [rounds]} (defaults: the current folder, 200 rounds); the folder is indexed with BM25 only, so the
 * comparison is not drowned by query embedding. Single-threaded; run it on a quiet machine.
 */
public final class AdapterOverheadBenchmark {

    private static final List<String> QUERIES = List.of(
            "how are fused scores normalised", "HybridCaseRetriever", "PayloadFilter parse", "where are chunk ids made stable",
            "adaptive extension relevance floor", "InMemoryCaseStore save", "tokenize camel case identifiers",
            "what happens when the index is corrupt", "OnnxEmbedder", "filter inside every leg");

    private AdapterOverheadBenchmark() {
    }

    public static void main(String[] args) {
        Path folder = Path.of(args.length > 0 ? args[0] : ".");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, got " + rounds);
        }
        HybridCaseRetriever retriever = FolderRetriever.index(folder, null);
        int limit = 5;
        NeuralTextContentRetriever langchain4j = NeuralTextContentRetriever.builder(retriever).limit(limit).build();
        NeuralTextDocumentRetriever springAi = NeuralTextDocumentRetriever.builder(retriever).limit(limit).build();

        String[] names = {"HybridCaseRetriever.search (direct)", "LangChain4j ContentRetriever.retrieve",
            "Spring AI DocumentRetriever.retrieve"};
        long[][] nanos = new long[3][rounds * QUERIES.size()];
        long sink = 0;
        for (int warm = 0; warm < Math.max(20, rounds / 5); warm++) {
            for (String q : QUERIES) {
                sink += calls(retriever, langchain4j, springAi, q, limit)[warm % 3].getAsInt();
            }
        }
        int n = 0;
        for (int round = 0; round < rounds; round++) {
            for (String q : QUERIES) {
                IntSupplier[] calls = calls(retriever, langchain4j, springAi, q, limit);
                for (int k = 0; k < 3; k++) {
                    int which = (round + k) % 3; // rotate the order so no call always runs first or last
                    long start = System.nanoTime();
                    sink += calls[which].getAsInt();
                    nanos[which][n] = System.nanoTime() - start;
                }
                n++;
            }
        }
        double directP50 = EvalRun.percentile(nanos[0], 50);
        System.out.printf(Locale.ROOT, "%d calls each, limit %d, BM25 only, same run (checksum %d)%n", n, limit, sink);
        System.out.printf(Locale.ROOT, "%-40s %10s %10s %12s %14s%n", "call", "p50 us", "p90 us", "p50 ratio",
                "p50 overhead");
        for (int i = 0; i < 3; i++) {
            double p50 = EvalRun.percentile(nanos[i], 50);
            System.out.printf(Locale.ROOT, "%-40s %10.1f %10.1f %11.3fx %11.1f us%n", names[i], p50 / 1e3,
                    EvalRun.percentile(nanos[i], 90) / 1e3, p50 / directP50, (p50 - directP50) / 1e3);
        }
    }

    private static IntSupplier[] calls(HybridCaseRetriever retriever, NeuralTextContentRetriever langchain4j,
                                       NeuralTextDocumentRetriever springAi, String q, int limit) {
        return new IntSupplier[] {
            () -> retriever.search(SearchRequest.builder(q).limit(limit).build()).hits().size(),
            () -> langchain4j.retrieve(Query.from(q)).size(),
            () -> springAi.retrieve(new org.springframework.ai.rag.Query(q)).size()};
    }
}
