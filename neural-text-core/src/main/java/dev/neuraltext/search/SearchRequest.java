package dev.neuraltext.search;

import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.internal.Checks;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A search as a user asks it. Build with {@link #of(String, int)} or {@link #builder(String)}.
 *
 * @param text     the query, in identifiers ({@code ChatModel}) or in English
 * @param limit    how many hits to return at least (when that many match); adaptive extension may return more
 * @param filter   metadata filter, {@link PayloadFilter#all()} by default
 * @param legs     legs to run; empty (the default) means every leg the retriever has an encoder for
 * @param fusion   how the legs are fused; {@code null} (the default) means <em>automatic</em>: the retriever chooses per
 *                 query (see {@link dev.neuraltext.retrieve.HybridCaseRetriever}: RRF with the BM25 leg weighted by the
 *                 query's shape); an explicit method, e.g. {@link FusionMethod#defaultMethod()}, is honoured exactly
 * @param rerank   rerank the shortlist when the retriever has a reranker; default true
 * @param adaptive extend past {@code limit} while scores stay close (see
 *                 {@link dev.neuraltext.retrieve.AdaptiveExtension}); default true
 * @param explain  ask the store for every leg's rank and score on every hit even when it fuses remotely; default false
 */
public record SearchRequest(
        String text,
        int limit,
        PayloadFilter filter,
        Set<Leg> legs,
        FusionMethod fusion,
        boolean rerank,
        boolean adaptive,
        boolean explain) {

    public SearchRequest {
        Checks.notBlank(text, "text");
        Checks.positive(limit, "limit");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(legs, "legs");
        legs = legs.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(legs));
    }

    /** A request with every default. */
    public static SearchRequest of(String text, int limit) {
        return builder(text).limit(limit).build();
    }

    /** A builder; defaults: limit 10, no filter, all legs, automatic fusion, rerank and adaptive on, explain off. */
    public static Builder builder(String text) {
        return new Builder(text);
    }

    /** Whether the fusion is automatic ({@link #fusion()} is {@code null}): the retriever chooses it per query. */
    public boolean autoFusion() {
        return fusion == null;
    }

    /** A builder initialised from this request. */
    public Builder toBuilder() {
        return new Builder(text).limit(limit).filter(filter).legs(legs).fusion(fusion).rerank(rerank)
                .adaptive(adaptive).explain(explain);
    }

    /** Builder of {@link SearchRequest}; not thread-safe. */
    public static final class Builder {
        private final String text;
        private int limit = 10;
        private PayloadFilter filter = PayloadFilter.all();
        private Set<Leg> legs = Set.of();
        private FusionMethod fusion;
        private boolean rerank = true;
        private boolean adaptive = true;
        private boolean explain;

        private Builder(String text) {
            this.text = text;
        }

        public Builder limit(int limit) {
            this.limit = limit;
            return this;
        }

        public Builder filter(PayloadFilter filter) {
            this.filter = filter;
            return this;
        }

        public Builder legs(Set<Leg> legs) {
            this.legs = legs;
            return this;
        }

        public Builder legs(Leg... legs) {
            this.legs = legs.length == 0 ? Set.of() : EnumSet.copyOf(java.util.Arrays.asList(legs));
            return this;
        }

        /** An explicit fusion method, honoured exactly; {@code null} (the default) lets the retriever choose per query. */
        public Builder fusion(FusionMethod fusion) {
            this.fusion = fusion;
            return this;
        }

        public Builder rerank(boolean rerank) {
            this.rerank = rerank;
            return this;
        }

        public Builder adaptive(boolean adaptive) {
            this.adaptive = adaptive;
            return this;
        }

        public Builder explain(boolean explain) {
            this.explain = explain;
            return this;
        }

        public SearchRequest build() {
            return new SearchRequest(text, limit, filter, legs, fusion, rerank, adaptive, explain);
        }
    }
}
