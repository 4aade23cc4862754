package com.example.lc4j;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.AugmentationRequest;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.rag.query.Metadata;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.ingest.JavaSourceChunker;
import dev.neuraltext.langchain4j.NeuralTextContentRetriever;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.store.InMemoryCaseStore;
import java.util.List;
import java.util.Map;

/**
 * A LangChain4j application's retrieval step with neural-text as its ContentRetriever (BM25 only, no model): the
 * augmented user message a chat model would receive.
 */
public final class RagPrompt {

    private RagPrompt() {
    }

    public static String augment(String question) {
        String source = """
                package com.acme.retry;

                /** Decides how long to wait between attempts of a failed call. */
                public final class RetryPolicy {
                    /** Exponential backoff: the delay doubles with every attempt. */
                    public long backoffDelay(int attempt) {
                        return 100L << attempt;
                    }
                }
                """;
        try (InMemoryCaseStore store = InMemoryCaseStore.create()) {
            HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).build();
            retriever.index(new JavaSourceChunker().chunk(new ExtractionResult("RetryPolicy.java", source,
                    Map.of(ChunkMetadata.PATH, "src/main/java/com/acme/retry/RetryPolicy.java"), Map.of())));
            RetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder()
                    .contentRetriever(NeuralTextContentRetriever.builder(retriever).limit(2).build())
                    .contentInjector(DefaultContentInjector.builder()
                            .metadataKeysToInclude(List.of(ChunkMetadata.PATH, ChunkMetadata.SYMBOL)).build())
                    .build();
            UserMessage message = UserMessage.from(question);
            return ((UserMessage) augmentor.augment(new AugmentationRequest(message,
                    Metadata.from(message, "user-1", List.of()))).chatMessage()).singleText();
        }
    }

    public static void main(String[] args) {
        System.out.println(augment(args.length > 0 ? args[0] : "how long is the backoff delay"));
    }
}
