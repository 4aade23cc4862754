package dev.neuraltext.springai;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/**
 * A Spring AI {@link DocumentRetriever} backed by a {@link HybridCaseRetriever}: BM25 over code-aware terms, dense and
 * sparse legs fused, filters inside every leg, adaptive extension. Plug it into a {@code RetrievalAugmentationAdvisor}
 * with one line. The only class of the {@code neural-text-spring-ai} module.
 *
 * <p>A {@link Query} becomes a {@link SearchRequest}: its text, the configured limit and legs, and the configured
 * filter combined by {@code and} with the query's own: by default the context entry {@value #FILTER_EXPRESSION},
 * either a {@link PayloadFilter} or a string in its syntax ({@code "type == 'code' and path ~ 'retry'"}); or whatever
 * {@link Builder#queryFilter(Function)} derives. Each hit becomes a {@link Document} with the chunk id and text,
 * {@link Document#getScore()} the hit's score in [0, 1] (the reranker's when the retriever reranked, else the fused
 * score), and metadata: the chunk metadata ({@code path}, {@code startLine} and {@code endLine} as integers,
 * {@code symbol}, {@code type}, ...), list metadata such as {@code tags} as lists, and {@value #FUSED_SCORE}. The whole
 * {@link SearchResponse}, with {@link SearchResponse#totalAboveThreshold()}, is returned by {@link #search(Query)} and
 * passed to the {@link Builder#onResponse(Consumer) onResponse} listener on every retrieval.
 *
 * <p>Defaults: limit 5, no filter, every leg the retriever has, the per-query filter read from the context.
 *
 * <p>Immutable and thread-safe when the wrapped retriever is (it is safe for concurrent searches) and the
 * per-query filter function and listener are.
 */
public final class NeuralTextDocumentRetriever implements DocumentRetriever {

    /** The {@link Query#context()} key of a per-query filter: a {@link PayloadFilter} or a string in its syntax. */
    public static final String FILTER_EXPRESSION = "neural_text_filter";
    /** The metadata key of the fused score (before any reranking). */
    public static final String FUSED_SCORE = "fusedScore";

    private final HybridCaseRetriever retriever;
    private final int limit;
    private final PayloadFilter filter;
    private final Set<Leg> legs;
    private final Function<Query, PayloadFilter> queryFilter;
    private final Consumer<SearchResponse> onResponse;

    private NeuralTextDocumentRetriever(Builder b) {
        this.retriever = b.retriever;
        this.limit = b.limit;
        this.filter = b.filter;
        this.legs = b.legs;
        this.queryFilter = b.queryFilter;
        this.onResponse = b.onResponse;
    }

    /** A builder over {@code retriever}, which the caller keeps owning (and closing the store of). */
    public static Builder builder(HybridCaseRetriever retriever) {
        return new Builder(retriever);
    }

    @Override
    public List<Document> retrieve(Query query) {
        return toDocuments(search(query));
    }

    /**
     * Searches for {@code query} and returns the whole response: the hits, {@link SearchResponse#totalAboveThreshold()}
     * (when larger than the number of hits, asking for more would return more relevant chunks) and the legs that ran.
     *
     * @throws IllegalArgumentException if the query text is blank, the context filter is neither a
     *                                  {@link PayloadFilter} nor a well-formed filter string, or the per-query filter
     *                                  function returns null
     */
    public SearchResponse search(Query query) {
        Objects.requireNonNull(query, "query");
        PayloadFilter perQuery = queryFilter.apply(query);
        if (perQuery == null) {
            throw new IllegalArgumentException("the queryFilter function returned null for query '" + query.text()
                    + "': return PayloadFilter.all() for no filter");
        }
        PayloadFilter combined = PayloadFilter.allOf(List.of(filter, perQuery));
        SearchResponse response = retriever.search(SearchRequest.builder(query.text()).limit(limit)
                .filter(combined).legs(legs).build());
        onResponse.accept(response);
        return response;
    }

    /** The default per-query filter: the {@value #FILTER_EXPRESSION} context entry, or no filter without one. */
    public static PayloadFilter contextFilter(Query query) {
        Object value = query.context().get(FILTER_EXPRESSION);
        if (value == null) {
            return PayloadFilter.all();
        }
        if (value instanceof PayloadFilter payloadFilter) {
            return payloadFilter;
        }
        if (value instanceof String text) {
            return PayloadFilter.parse(text);
        }
        throw new IllegalArgumentException("query context '" + FILTER_EXPRESSION + "' must be a PayloadFilter or a "
                + "filter string such as \"type == 'code'\", got a " + value.getClass().getName() + ": " + value);
    }

    /** The hits of {@code response} as Spring AI documents, best first. */
    public static List<Document> toDocuments(SearchResponse response) {
        List<Document> documents = new ArrayList<>(response.hits().size());
        for (SearchHit hit : response.hits()) {
            Map<String, Object> metadata = new LinkedHashMap<>();
            hit.metadata().forEach((key, value) -> metadata.put(key, ChunkMetadata.typedValue(key, value)));
            metadata.putAll(hit.listMetadata());
            metadata.put(FUSED_SCORE, hit.fusedScore());
            documents.add(Document.builder().id(hit.id()).text(hit.text()).metadata(metadata).score(hit.score())
                    .build());
        }
        return documents;
    }

    @Override
    public String toString() {
        return "NeuralTextDocumentRetriever[limit=" + limit + ", filter=" + filter.toSyntax() + ", legs="
                + (legs.isEmpty() ? "all" : legs) + "]";
    }

    /** Builder of {@link NeuralTextDocumentRetriever}; not thread-safe. */
    public static final class Builder {
        private final HybridCaseRetriever retriever;
        private int limit = 5;
        private PayloadFilter filter = PayloadFilter.all();
        private Set<Leg> legs = Set.of();
        private Function<Query, PayloadFilter> queryFilter = NeuralTextDocumentRetriever::contextFilter;
        private Consumer<SearchResponse> onResponse = response -> { };

        private Builder(HybridCaseRetriever retriever) {
            this.retriever = Objects.requireNonNull(retriever, "retriever");
        }

        /** How many documents to return at least (when that many match); adaptive extension may return more. Default 5. */
        public Builder limit(int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be >= 1, got " + limit);
            }
            this.limit = limit;
            return this;
        }

        /** A filter applied to every query, e.g. {@code PayloadFilter.parse("type == 'code'")}. Default: none. */
        public Builder filter(PayloadFilter filter) {
            this.filter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /** The legs to run; empty (the default) means every leg the retriever has an encoder for. */
        public Builder legs(Set<Leg> legs) {
            this.legs = Set.copyOf(Objects.requireNonNull(legs, "legs"));
            return this;
        }

        /**
         * A filter derived from each query, combined with {@link #filter(PayloadFilter)} by {@code and}; it must not
         * return null ({@code PayloadFilter.all()} is "no filter"). Default: {@link #contextFilter(Query)}.
         */
        public Builder queryFilter(Function<Query, PayloadFilter> queryFilter) {
            this.queryFilter = Objects.requireNonNull(queryFilter, "queryFilter");
            return this;
        }

        /** Called with every {@link SearchResponse}, for example to read {@link SearchResponse#totalAboveThreshold()}. */
        public Builder onResponse(Consumer<SearchResponse> onResponse) {
            this.onResponse = Objects.requireNonNull(onResponse, "onResponse");
            return this;
        }

        public NeuralTextDocumentRetriever build() {
            return new NeuralTextDocumentRetriever(this);
        }
    }
}
