package dev.neuraltext.examples.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.AugmentationRequest;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.rag.query.Metadata;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.examples.FolderRetriever;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.langchain4j.NeuralTextContentRetriever;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import java.util.List;

/**
 * LangChain4j retrieval-augmented generation with neural-text as the {@code ContentRetriever}, without a chat model:
 * indexes a folder (this repository by default), lets a {@link DefaultRetrievalAugmentor} retrieve for a question and
 * prints the augmented user message a chat model would receive. Offline.
 *
 * <p>Run: {@code java -cp examples/target/neural-text-examples.jar dev.neuraltext.examples.langchain4j.LangChain4jRagExample
 * [folder] [question] [--dense]}. BM25 only by default, indexed in seconds; {@code --dense} adds the MiniLM leg, which
 * embeds the whole folder first (about two minutes for this repository on 2 cores).
 */
public final class LangChain4jRagExample {

    private LangChain4jRagExample() {
    }

    /** Builds the augmented message for {@code question} with {@code retriever}; what {@link #main} prints. */
    public static ChatMessage augment(HybridCaseRetriever retriever, String question) {
        NeuralTextContentRetriever contentRetriever = NeuralTextContentRetriever.builder(retriever)
                .limit(3)
                .filter(PayloadFilter.mustNot(PayloadFilter.matchText(ChunkMetadata.PATH, "src/test/")))
                .onResponse(response -> System.out.println("retrieved: " + response.summary()))
                .build();
        RetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder()
                .contentRetriever(contentRetriever)
                .contentInjector(DefaultContentInjector.builder()
                        .metadataKeysToInclude(List.of(ChunkMetadata.PATH, ChunkMetadata.START_LINE, ChunkMetadata.SYMBOL))
                        .build())
                .build();
        UserMessage message = UserMessage.from(question);
        AugmentationResult result = augmentor.augment(new AugmentationRequest(message,
                Metadata.from(message, "example-user", List.of())));
        return result.chatMessage();
    }

    public static void main(String[] args) {
        FolderRetriever.runExample(args, (retriever, question) -> ((UserMessage) augment(retriever, question)).singleText());
    }
}
