package dev.neuraltext.examples;

import static dev.neuraltext.filter.PayloadFilter.matchKeyword;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.ingest.JavaSourceChunker;
import dev.neuraltext.ingest.MarkdownChunker;
import dev.neuraltext.onnx.OnnxEmbedder;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.InMemoryCaseStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The smallest complete use of neural-text: chunk a little Java and Markdown, index it in the embedded store with BM25
 * and the MiniLM dense leg, search with a metadata filter, and print why each hit ranked.
 *
 * <p>Run: {@code java -cp examples/target/neural-text-examples.jar dev.neuraltext.examples.QuickStart}
 */
public final class QuickStart {

    private QuickStart() {
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.log.ai.djl", "error"); // no GPU-probe notes from the tokenizer library
        String java = """
                package com.acme.retry;

                /** Decides how long to wait between attempts of a failed call. */
                public final class RetryPolicy {
                    /** Exponential backoff: the delay doubles with every attempt. */
                    public long backoffDelay(int attempt) {
                        return 100L << attempt;
                    }

                    /** Whether another attempt is allowed. */
                    public boolean shouldRetry(int attempt, Throwable failure) {
                        return attempt < 5 && !(failure instanceof IllegalArgumentException);
                    }
                }
                """;
        String markdown = """
                ---
                tags: [retry, http]
                ---
                # Retries
                Failed HTTP calls are retried with exponential backoff and jitter, at most five times.
                """;
        List<ChunkInput> chunks = new ArrayList<>();
        chunks.addAll(new JavaSourceChunker().chunk(new ExtractionResult("RetryPolicy.java", java,
                Map.of("path", "src/main/java/com/acme/retry/RetryPolicy.java"), Map.of())));
        chunks.addAll(MarkdownChunker.create().chunk(new ExtractionResult("retries.md", markdown,
                Map.of("path", "docs/retries.md"), Map.of())));

        try (OnnxEmbedder embedder = OnnxEmbedder.allMiniLmL6V2();
                InMemoryCaseStore store = InMemoryCaseStore.create()) {
            HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).embedder(embedder).build();
            retriever.index(chunks);

            // only code, not docs: the filter runs inside every leg
            SearchRequest request = SearchRequest.builder("how long do we wait before trying again")
                    .limit(3).filter(matchKeyword("type", "code")).build();
            SearchResponse response = retriever.search(request);
            for (SearchHit hit : response.hits()) {
                System.out.printf("%.3f  %s:%s  %s%n", hit.score(), hit.metadata().get(ChunkMetadata.PATH),
                        hit.metadata().get(ChunkMetadata.START_LINE), hit.metadata().get(ChunkMetadata.SYMBOL));
                for (LegScore leg : hit.legs().values()) {
                    System.out.printf("         %s rank %d, raw score %.3f%n", leg.leg().label(), leg.rank(), leg.score());
                }
            }
            System.out.println(response.summary());
        }
    }
}
