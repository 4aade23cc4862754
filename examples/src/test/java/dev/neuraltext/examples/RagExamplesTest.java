package dev.neuraltext.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.UserMessage;
import dev.neuraltext.examples.langchain4j.LangChain4jRagExample;
import dev.neuraltext.examples.springai.SpringAiRagExample;
import dev.neuraltext.testing.FixtureCorpus;
import org.junit.jupiter.api.Test;

/** The two RAG example mains build a prompt holding the question and the retrieved chunks, with no chat model. */
class RagExamplesTest {

    @Test
    void theLangChain4jExamplePutsTheBestChunkAndItsLocationIntoTheMessage() {
        String prompt = ((UserMessage) LangChain4jRagExample.augment(FixtureCorpus.retriever(), "RetryPolicy backoffDelay"))
                .singleText();
        assertThat(prompt).startsWith("RetryPolicy backoffDelay")
                .contains("return 100L << attempt;")
                .contains("path: src/main/java/com/example/orders/RetryPolicy.java")
                .contains("symbol: RetryPolicy.backoffDelay");
    }

    @Test
    void theSpringAiExamplePutsTheBestChunkIntoTheContextOfTheMessage() {
        String prompt = SpringAiRagExample.augment(FixtureCorpus.retriever(), "removeEldestEntry")
                .prompt().getUserMessage().getText();
        assertThat(prompt).contains("Context information is below").contains("return size() > capacity;")
                .contains("removeEldestEntry");
    }
}
