package com.example.springai;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The adapter runs inside Spring AI's RetrievalAugmentationAdvisor, from the published artifacts only. */
class RagPromptTest {

    @Test
    void theAugmentedMessageHoldsTheQuestionAndTheRetrievedMethod() {
        String prompt = RagPrompt.augment("backoffDelay");
        assertThat(prompt).contains("return 100L << attempt;").contains("backoffDelay").contains("Query: backoffDelay");
    }
}
