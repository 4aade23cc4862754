package com.example.consumer;

import static dev.neuraltext.filter.PayloadFilter.matchKeyword;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.ingest.JavaSourceChunker;
import dev.neuraltext.onnx.OnnxEmbedder;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.InMemoryCaseStore;
import java.util.List;
import java.util.Map;

/** The README's quick start, as a user would paste it. */
public final class QuickStart {

    private QuickStart() {
    }

    public static void main(String[] args) {
        String javaSource = """
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
        List<ChunkInput> chunks = new JavaSourceChunker().chunk(
                new ExtractionResult("RetryPolicy.java", javaSource, Map.of("path", "src/RetryPolicy.java"), Map.of()));

        try (OnnxEmbedder embedder = OnnxEmbedder.allMiniLmL6V2();          // from the Maven Central model artifact
                InMemoryCaseStore store = InMemoryCaseStore.create()) {
            HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).embedder(embedder).build();
            retriever.index(chunks);

            SearchResponse response = retriever.search(SearchRequest.builder("how long do we wait before trying again")
                    .limit(3).filter(matchKeyword("type", "code")).build());   // the filter runs inside every leg
            for (SearchHit hit : response.hits()) {
                System.out.println(hit.score() + " " + hit.metadata().get("symbol") + " " + hit.legs());
            }
            System.out.println(response.summary());
        }
    }
}
