package dev.neuraltext.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;

class NeuralTextDocumentRetrieverTest {

    private final HybridCaseRetriever retriever = FixtureCorpus.retriever();

    /** The advisor's retrieval step, as a ChatClient runs it before calling the model. */
    private static ChatClientRequest advise(NeuralTextDocumentRetriever documentRetriever, String question,
                                            Map<String, Object> context) {
        RetrievalAugmentationAdvisor advisor = RetrievalAugmentationAdvisor.builder()
                .documentRetriever(documentRetriever).build();
        return advisor.before(ChatClientRequest.builder().prompt(new Prompt(new UserMessage(question)))
                .context(context).build(), null);
    }

    @SuppressWarnings("unchecked")
    private static List<Document> documents(ChatClientRequest request) {
        return (List<Document>) request.context().get(RetrievalAugmentationAdvisor.DOCUMENT_CONTEXT);
    }

    @Test
    void throughTheAdvisorDocumentsCarryChunkMetadataAndScores() {
        List<SearchResponse> responses = new ArrayList<>();
        NeuralTextDocumentRetriever documentRetriever = NeuralTextDocumentRetriever.builder(retriever).limit(3)
                .onResponse(responses::add).build();
        ChatClientRequest augmented = advise(documentRetriever, "removeEldestEntry", Map.of());

        SearchResponse direct = retriever.search(SearchRequest.builder("removeEldestEntry").limit(3).build());
        assertThat(responses).singleElement().satisfies(r ->
                assertThat(r.totalAboveThreshold()).isEqualTo(direct.totalAboveThreshold()));
        List<Document> documents = documents(augmented);
        assertThat(documents).hasSize(direct.hits().size());
        for (int i = 0; i < documents.size(); i++) {
            SearchHit hit = direct.hits().get(i);
            Document document = documents.get(i);
            assertThat(document.getId()).isEqualTo(hit.id());
            assertThat(document.getText()).isEqualTo(hit.text());
            assertThat(document.getScore()).isCloseTo(hit.score(), within(1e-12));
            assertThat(document.getMetadata())
                    .containsEntry(ChunkMetadata.PATH, hit.metadata().get(ChunkMetadata.PATH))
                    .containsEntry(ChunkMetadata.SYMBOL, hit.metadata().get(ChunkMetadata.SYMBOL))
                    .containsEntry(ChunkMetadata.START_LINE, Integer.valueOf(hit.metadata().get(ChunkMetadata.START_LINE)))
                    .containsEntry(ChunkMetadata.END_LINE, Integer.valueOf(hit.metadata().get(ChunkMetadata.END_LINE)))
                    .containsEntry(NeuralTextDocumentRetriever.FUSED_SCORE, hit.fusedScore());
        }
        assertThat(documents.get(0).getMetadata()).containsEntry(ChunkMetadata.SYMBOL, "LruCache.removeEldestEntry");
        assertThat(documents.get(0).getScore()).isBetween(0.0, 1.0);
        assertThat(augmented.prompt().getUserMessage().getText())
                .contains("removeEldestEntry").contains("return size() > capacity;");
    }

    @Test
    void theConfiguredFilterAndTheRequestContextFilterBothApply() {
        NeuralTextDocumentRetriever documentRetriever = NeuralTextDocumentRetriever.builder(retriever).limit(5)
                .filter(PayloadFilter.matchKeyword(ChunkMetadata.TYPE, ChunkMetadata.TYPE_DOC)).build();
        List<Document> allDocs = documents(advise(documentRetriever, "retried with backoff", Map.of()));
        List<Document> tagged = documents(advise(documentRetriever, "retried with backoff",
                Map.of(NeuralTextDocumentRetriever.FILTER_EXPRESSION, "tags in ['retry']")));
        List<Document> typed = documents(advise(documentRetriever, "retried with backoff",
                Map.of(NeuralTextDocumentRetriever.FILTER_EXPRESSION, PayloadFilter.matchKeyword("tags", "cache"))));

        assertThat(allDocs).isNotEmpty().allSatisfy(d -> assertThat(d.getMetadata()).containsEntry("type", "doc"));
        assertThat(allDocs).extracting(d -> d.getMetadata().get("path")).contains("docs/caching.md", "docs/retries.md");
        assertThat(tagged).isNotEmpty().allSatisfy(d -> {
            assertThat(d.getMetadata()).containsEntry("path", "docs/retries.md");
            assertThat(d.getMetadata()).containsEntry(ChunkMetadata.TAGS, List.of("retry", "http"));
        });
        assertThat(typed).isNotEmpty().allSatisfy(d -> assertThat(d.getMetadata()).containsEntry("path", "docs/caching.md"));
    }

    @Test
    void legsAreHonouredAndAUserMappingReplacesTheContextFilter() {
        NeuralTextDocumentRetriever bm25Code = NeuralTextDocumentRetriever.builder(retriever).legs(Set.of(Leg.BM25))
                .queryFilter(q -> PayloadFilter.matchKeyword(ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE)).build();
        SearchResponse response = bm25Code.search(new Query("retried"));
        assertThat(response.legsRun()).containsExactly(Leg.BM25);
        assertThat(response.hits()).allSatisfy(h -> assertThat(h.metadata()).containsEntry("type", "code"));
        assertThat(bm25Code.retrieve(new Query("tryAcquire")).get(0).getMetadata())
                .containsEntry(ChunkMetadata.SYMBOL, "RateLimiter.tryAcquire");
    }

    @Test
    void aMalformedContextFilterIsRejectedWithTheKeyAndTheValue() {
        NeuralTextDocumentRetriever documentRetriever = NeuralTextDocumentRetriever.builder(retriever).build();
        Query wrongType = Query.builder().text("retry").context(Map.of(NeuralTextDocumentRetriever.FILTER_EXPRESSION, 42))
                .build();
        assertThatThrownBy(() -> documentRetriever.retrieve(wrongType)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(NeuralTextDocumentRetriever.FILTER_EXPRESSION).hasMessageContaining("42");
        Query malformed = Query.builder().text("retry")
                .context(Map.of(NeuralTextDocumentRetriever.FILTER_EXPRESSION, "type == ")).build();
        assertThatThrownBy(() -> documentRetriever.retrieve(malformed)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NeuralTextDocumentRetriever.builder(retriever).limit(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
