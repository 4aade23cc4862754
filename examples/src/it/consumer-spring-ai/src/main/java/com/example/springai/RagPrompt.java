package com.example.springai;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.ingest.JavaSourceChunker;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.springai.NeuralTextDocumentRetriever;
import dev.neuraltext.store.InMemoryCaseStore;
import java.util.Map;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;

/**
 * A Spring AI application's retrieval step with neural-text as its DocumentRetriever (BM25 only, no model): the
 * user message a chat model would receive after the RetrievalAugmentationAdvisor ran.
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
            RetrievalAugmentationAdvisor advisor = RetrievalAugmentationAdvisor.builder()
                    .documentRetriever(NeuralTextDocumentRetriever.builder(retriever).limit(2).build())
                    .taskExecutor(Runnable::run)
                    .build();
            ChatClientRequest request = ChatClientRequest.builder().prompt(new Prompt(new UserMessage(question)))
                    .build();
            return advisor.before(request, null).prompt().getUserMessage().getText();
        }
    }

    public static void main(String[] args) {
        System.out.println(augment(args.length > 0 ? args[0] : "how long is the backoff delay"));
    }
}
