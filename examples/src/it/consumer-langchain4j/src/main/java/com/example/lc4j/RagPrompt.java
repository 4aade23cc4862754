package com.example.lc4j;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.AugmentationRequest;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.rag.query.Metadata;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.langchain4j.NeuralTextContentRetriever;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import java.util.List;

/**
 * A LangChain4j application's retrieval step with neural-text as its ContentRetriever: the
 * augmented user message a chat model would receive.
 */
public final class RagPrompt {

    private RagPrompt() {
    }

    /** The user message a chat model would receive for {@code question}, with {@code retriever} behind the adapter. */
    public static String augment(HybridCaseRetriever retriever, String question) {
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
