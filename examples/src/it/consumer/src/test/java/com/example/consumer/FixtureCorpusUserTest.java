package com.example.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.testing.FixtureCorpus;
import org.junit.jupiter.api.Test;

/** What a user's unit test does with the published fixtures: a retriever in milliseconds, answers known. */
class FixtureCorpusUserTest {

    @Test
    void theFixtureRetrieverAnswersEveryKnownQuery() {
        HybridCaseRetriever retriever = FixtureCorpus.retriever();
        for (FixtureCorpus.KnownAnswer answer : FixtureCorpus.knownAnswers()) {
            SearchHit top = retriever.search(SearchRequest.builder(answer.query()).limit(3).filter(answer.filter())
                    .build()).hits().get(0);
            assertThat(top.metadata().get("symbol")).as(answer.query()).isEqualTo(answer.expectedSymbol());
        }
    }
}
