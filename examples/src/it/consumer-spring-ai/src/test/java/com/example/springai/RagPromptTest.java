package com.example.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.testing.FixtureCorpus;
import org.junit.jupiter.api.Test;

/** The adapter runs inside Spring AI's RetrievalAugmentationAdvisor, from the published artifacts only. */
class RagPromptTest {

    @Test
    void theAugmentedMessageHoldsTheQuestionAndTheRetrievedMethod() {
        String prompt = RagPrompt.augment(FixtureCorpus.retriever(), "backoffDelay");
        assertThat(prompt).contains("return 100L << attempt;").contains("backoffDelay").contains("Query: backoffDelay");
    }
}
