package com.example.lc4j;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The adapter runs inside LangChain4j's DefaultRetrievalAugmentor, from the published artifacts only. */
class RagPromptTest {

    @Test
    void theAugmentedMessageHoldsTheQuestionAndTheRetrievedMethod() {
        String prompt = RagPrompt.augment("backoffDelay");
        assertThat(prompt).startsWith("backoffDelay").contains("return 100L << attempt;")
                .contains("src/main/java/com/acme/retry/RetryPolicy.java");
    }
}
