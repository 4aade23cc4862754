package dev.neuraltext.examples.springai;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.examples.FolderRetriever;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.springai.NeuralTextDocumentRetriever;
import java.util.List;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;

/**
 * Spring AI retrieval-augmented generation with neural-text as the {@code DocumentRetriever}, without a chat model:
 * indexes a folder (this repository by default), runs a {@link RetrievalAugmentationAdvisor} over a question and
 * prints the augmented user message a chat model would receive. Offline.
 *
 * <p>Run: {@code java -cp examples/target/neural-text-examples.jar dev.neuraltext.examples.springai.SpringAiRagExample
 * [folder] [question] [--dense]}. BM25 only by default, indexed in seconds; {@code --dense} adds the MiniLM leg, which
 * embeds the whole folder first (about two minutes for this repository on 2 cores).
 */
public final class SpringAiRagExample {

    private SpringAiRagExample() {
    }

    /**
     * Runs the advisor's retrieval step for {@code question} with {@code retriever}; what {@link #main} prints.
     * A chat client passes the same {@code context} from {@code .advisors(a -> a.param(key, value))}.
     */
    public static ChatClientRequest augment(HybridCaseRetriever retriever, String question) {
        NeuralTextDocumentRetriever documentRetriever = NeuralTextDocumentRetriever.builder(retriever)
                .limit(3)
                .filter(PayloadFilter.mustNot(PayloadFilter.matchText(ChunkMetadata.PATH, "src/test/")))
                .onResponse(response -> System.out.println("retrieved: " + response.summary()))
                .build();
        RetrievalAugmentationAdvisor advisor = RetrievalAugmentationAdvisor.builder()
                .documentRetriever(documentRetriever)
                .taskExecutor(Runnable::run) // retrieve on the calling thread: one retriever, nothing to parallelise
                .build();
        ChatClientRequest request = ChatClientRequest.builder()
                .prompt(new Prompt(new UserMessage(question)))
                .context(NeuralTextDocumentRetriever.FILTER_EXPRESSION, "not symbolType == 'field'")
                .build();
        return advisor.before(request, null);
    }

    public static void main(String[] args) {
        FolderRetriever.runExample(args, (retriever, question) -> augment(retriever, question).prompt().getUserMessage().getText());
    }
}
