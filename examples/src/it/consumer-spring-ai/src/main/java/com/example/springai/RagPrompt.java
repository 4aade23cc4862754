package com.example.springai;

import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.springai.NeuralTextDocumentRetriever;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;

/**
 * A Spring AI application's retrieval step with neural-text as its DocumentRetriever: the
 * user message a chat model would receive after the RetrievalAugmentationAdvisor ran.
 */
public final class RagPrompt {

    private RagPrompt() {
    }

    /** The user message a chat model would receive for {@code question}, with {@code retriever} behind the adapter. */
    public static String augment(HybridCaseRetriever retriever, String question) {
        RetrievalAugmentationAdvisor advisor = RetrievalAugmentationAdvisor.builder()
                .documentRetriever(NeuralTextDocumentRetriever.builder(retriever).limit(2).build())
                .taskExecutor(Runnable::run)
                .build();
        ChatClientRequest request = ChatClientRequest.builder().prompt(new Prompt(new UserMessage(question)))
                .build();
        return advisor.before(request, null).prompt().getUserMessage().getText();
    }
}
