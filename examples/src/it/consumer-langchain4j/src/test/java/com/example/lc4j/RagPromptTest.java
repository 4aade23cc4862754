package com.example.lc4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.testing.FixtureCorpus;
import org.junit.jupiter.api.Test;

/** The adapter runs inside LangChain4j's DefaultRetrievalAugmentor, from the published artifacts only. */
class RagPromptTest {

    @Test
    void theAugmentedMessageHoldsTheQuestionAndTheRetrievedMethod() {
        String prompt = RagPrompt.augment(FixtureCorpus.retriever(), "backoffDelay");
        assertThat(prompt).startsWith("backoffDelay").contains("return 100L << attempt;")
                .contains("path: src/main/java/com/example/orders/RetryPolicy.java");
    }
}
