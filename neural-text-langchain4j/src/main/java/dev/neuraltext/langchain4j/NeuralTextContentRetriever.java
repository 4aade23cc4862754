package dev.neuraltext.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A LangChain4j {@link ContentRetriever} backed by a {@link HybridCaseRetriever}: BM25 over code-aware terms, dense and
 * sparse legs fused, filters inside every leg, adaptive extension. Plug it into a {@code DefaultRetrievalAugmentor}
 * or an AI service with one line. The only class of the {@code neural-text-langchain4j} module.
 *
 * <p>Each hit becomes a {@link Content}: the {@link TextSegment} holds the chunk text and its metadata ({@code id},
 * {@code path}, {@code startLine} and {@code endLine} as integers, {@code symbol}, {@code type}, ...; list metadata
 * such as {@code tags} joined by commas), {@link ContentMetadata#SCORE} is the fused score in [0, 1],
 * {@link ContentMetadata#RERANKED_SCORE} is the reranker's score when the retriever reranked, and
 * {@link ContentMetadata#EMBEDDING_ID} is the chunk id. The whole {@link SearchResponse}, with
 * {@link SearchResponse#totalAboveThreshold()}, is returned by {@link #search(Query)} and passed to the
 * {@link Builder#onResponse(Consumer) onResponse} listener on every retrieval, also when a framework calls
 * {@link #retrieve(Query)}. LangChain4j 1.19's {@code ContentRetriever} has no asynchronous variant (its
 * {@code DefaultRetrievalAugmentor} runs retrievers on its own executor), so there is none here.
 *
 * <p>Defaults: limit 5, no filter, every leg the retriever has, no per-query filter.
 *
 * <p>Immutable and thread-safe when the wrapped retriever is (it is safe for concurrent searches) and the
 * per-query filter function and listener are.
 */
public final class NeuralTextContentRetriever implements ContentRetriever {

    private final HybridCaseRetriever retriever;
    private final int limit;
    private final PayloadFilter filter;
    private final Set<Leg> legs;
    private final Function<Query, PayloadFilter> queryFilter;
    private final Consumer<SearchResponse> onResponse;

    private NeuralTextContentRetriever(Builder b) {
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
    public List<Content> retrieve(Query query) {
        return toContents(search(query));
    }

    /**
     * Searches for {@code query} and returns the whole response: the hits, {@link SearchResponse#totalAboveThreshold()}
     * (when larger than the number of hits, asking for more would return more relevant chunks) and the legs that ran.
     *
     * @throws IllegalArgumentException if the query text is blank or the per-query filter function returns null
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

    /** The hits of {@code response} as LangChain4j contents, best first. */
    public static List<Content> toContents(SearchResponse response) {
        List<Content> contents = new ArrayList<>(response.hits().size());
        for (SearchHit hit : response.hits()) {
            Metadata metadata = new Metadata().put("id", hit.id());
            hit.metadata().forEach((key, value) -> {
                if (ChunkMetadata.typedValue(key, value) instanceof Integer line) {
                    metadata.put(key, line);
                } else {
                    metadata.put(key, value);
                }
            });
            hit.listMetadata().forEach((key, values) -> metadata.put(key, String.join(",", values)));
            Map<ContentMetadata, Object> scores = new EnumMap<>(ContentMetadata.class);
            scores.put(ContentMetadata.SCORE, hit.fusedScore());
            scores.put(ContentMetadata.EMBEDDING_ID, hit.id());
            if (response.reranked()) {
                scores.put(ContentMetadata.RERANKED_SCORE, hit.score());
            }
            contents.add(Content.from(TextSegment.from(hit.text(), metadata), scores));
        }
        return contents;
    }

    @Override
    public String toString() {
        return "NeuralTextContentRetriever[limit=" + limit + ", filter=" + filter.toSyntax() + ", legs="
                + (legs.isEmpty() ? "all" : legs) + "]";
    }

    /** Builder of {@link NeuralTextContentRetriever}; not thread-safe. */
    public static final class Builder {
        private final HybridCaseRetriever retriever;
        private int limit = 5;
        private PayloadFilter filter = PayloadFilter.all();
        private Set<Leg> legs = Set.of();
        private Function<Query, PayloadFilter> queryFilter = query -> PayloadFilter.all();
        private Consumer<SearchResponse> onResponse = response -> { };

        private Builder(HybridCaseRetriever retriever) {
            this.retriever = Objects.requireNonNull(retriever, "retriever");
        }

        /** How many contents to return at least (when that many match); adaptive extension may return more. Default 5. */
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
         * A filter derived from each query, combined with {@link #filter(PayloadFilter)} by {@code and}: for example
         * from {@code query.metadata().chatMemoryId()} (a user or tenant) or {@code invocationParameters()}. The
         * function must not return null ({@code PayloadFilter.all()} is "no filter"); {@code query.metadata()} is null
         * when the query was built without metadata. Default: no per-query filter.
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

        public NeuralTextContentRetriever build() {
            return new NeuralTextContentRetriever(this);
        }
    }
}
