package dev.neuraltext.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.AugmentationRequest;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Metadata;
import dev.langchain4j.rag.query.Query;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.testing.FixtureCorpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NeuralTextContentRetrieverTest {

    private final HybridCaseRetriever retriever = FixtureCorpus.retriever();

    private static AugmentationResult augment(ContentRetriever contentRetriever, String question, Object memoryId) {
        UserMessage message = UserMessage.from(question);
        return DefaultRetrievalAugmentor.builder().contentRetriever(contentRetriever).build()
                .augment(new AugmentationRequest(message, Metadata.from(message, memoryId, List.of())));
    }

    @Test
    void throughTheRetrievalAugmentorContentsCarryChunkMetadataAndFusedScores() {
        List<SearchResponse> responses = new ArrayList<>();
        NeuralTextContentRetriever contentRetriever = NeuralTextContentRetriever.builder(retriever).limit(3)
                .onResponse(responses::add).build();
        AugmentationResult result = augment(contentRetriever, "RetryPolicy backoffDelay", "user-1");

        SearchResponse direct = retriever.search(SearchRequest.builder("RetryPolicy backoffDelay").limit(3).build());
        assertThat(responses).hasSize(1);
        assertThat(responses.get(0).hits()).extracting(SearchHit::id).isEqualTo(direct.hits().stream().map(SearchHit::id).toList());
        assertThat(responses.get(0).totalAboveThreshold()).isEqualTo(direct.totalAboveThreshold());

        List<Content> contents = result.contents();
        assertThat(contents).hasSize(direct.hits().size());
        for (int i = 0; i < contents.size(); i++) {
            SearchHit hit = direct.hits().get(i);
            Content content = contents.get(i);
            dev.langchain4j.data.document.Metadata metadata = content.textSegment().metadata();
            assertThat(content.textSegment().text()).isEqualTo(hit.text());
            assertThat(metadata.getString("id")).isEqualTo(hit.id());
            assertThat(metadata.getString(ChunkMetadata.PATH)).isEqualTo(hit.metadata().get(ChunkMetadata.PATH));
            assertThat(metadata.getString(ChunkMetadata.SYMBOL)).isEqualTo(hit.metadata().get(ChunkMetadata.SYMBOL));
            assertThat(metadata.getInteger(ChunkMetadata.START_LINE))
                    .isEqualTo(Integer.valueOf(hit.metadata().get(ChunkMetadata.START_LINE)));
            assertThat(metadata.getInteger(ChunkMetadata.END_LINE))
                    .isEqualTo(Integer.valueOf(hit.metadata().get(ChunkMetadata.END_LINE)));
            assertThat((Double) content.metadata().get(ContentMetadata.SCORE)).isCloseTo(hit.fusedScore(), within(1e-12));
            assertThat(content.metadata().get(ContentMetadata.EMBEDDING_ID)).isEqualTo(hit.id());
            assertThat(content.metadata()).doesNotContainKey(ContentMetadata.RERANKED_SCORE);
        }
        assertThat(contents.get(0).textSegment().metadata().getString(ChunkMetadata.SYMBOL))
                .isEqualTo("RetryPolicy.backoffDelay");
        assertThat((Double) contents.get(0).metadata().get(ContentMetadata.SCORE)).isBetween(0.0, 1.0);
        // the augmented message a chat model would get holds the question and the best chunk's text
        String prompt = ((UserMessage) result.chatMessage()).singleText();
        assertThat(prompt).contains("RetryPolicy backoffDelay").contains("return 100L << attempt;");
    }

    @Test
    void theConfiguredFilterAndThePerQueryFilterBothApply() {
        PayloadFilter docs = PayloadFilter.matchKeyword(ChunkMetadata.TYPE, ChunkMetadata.TYPE_DOC);
        NeuralTextContentRetriever contentRetriever = NeuralTextContentRetriever.builder(retriever).limit(5)
                .filter(docs)
                // a tenant rule from the chat memory id: "retry-team" sees only pages tagged retry
                .queryFilter(q -> "retry-team".equals(q.metadata().chatMemoryId())
                        ? PayloadFilter.matchKeyword(ChunkMetadata.TAGS, "retry") : PayloadFilter.all())
                .build();
        List<Content> everyone = augment(contentRetriever, "retried with backoff", "someone").contents();
        List<Content> retryTeam = augment(contentRetriever, "retried with backoff", "retry-team").contents();

        assertThat(everyone).isNotEmpty().allSatisfy(c ->
                assertThat(c.textSegment().metadata().getString(ChunkMetadata.TYPE)).isEqualTo(ChunkMetadata.TYPE_DOC));
        assertThat(everyone).extracting(c -> c.textSegment().metadata().getString(ChunkMetadata.PATH))
                .contains("docs/caching.md", "docs/retries.md");
        assertThat(retryTeam).isNotEmpty().allSatisfy(c -> {
            assertThat(c.textSegment().metadata().getString(ChunkMetadata.PATH)).isEqualTo("docs/retries.md");
            assertThat(c.textSegment().metadata().getString(ChunkMetadata.TAGS)).isEqualTo("retry,http");
        });
    }

    @Test
    void legsAreHonouredAndTheAboveThresholdCountIsReturned() {
        NeuralTextContentRetriever bm25Only = NeuralTextContentRetriever.builder(retriever).legs(Set.of(Leg.BM25)).build();
        SearchResponse response = bm25Only.search(Query.from("tryAcquire"));
        assertThat(response.legsRun()).containsExactly(Leg.BM25);
        assertThat(response.totalAboveThreshold()).isEqualTo(retriever.search(SearchRequest.builder("tryAcquire")
                .limit(5).legs(Leg.BM25).build()).totalAboveThreshold());
        assertThat(bm25Only.retrieve(Query.from("tryAcquire")).get(0).textSegment().metadata()
                .getString(ChunkMetadata.SYMBOL)).isEqualTo("RateLimiter.tryAcquire");
        assertThat(NeuralTextContentRetriever.builder(retriever).build().search(Query.from("tryAcquire")).legsRun())
                .contains(Leg.BM25, Leg.DENSE);
    }

    @Test
    void badSettingsAndANullPerQueryFilterAreRejectedWithTheValue() {
        assertThatThrownBy(() -> NeuralTextContentRetriever.builder(retriever).limit(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit").hasMessageContaining("0");
        assertThatThrownBy(() -> NeuralTextContentRetriever.builder(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("retriever");
        NeuralTextContentRetriever broken = NeuralTextContentRetriever.builder(retriever).queryFilter(q -> null).build();
        assertThatThrownBy(() -> broken.retrieve(Query.from("tryAcquire")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("queryFilter")
                .hasMessageContaining("tryAcquire");
    }
}
