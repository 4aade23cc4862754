package dev.neuraltext.retrieve;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.Reranker;
import dev.neuraltext.encode.SparseEncoder;
import dev.neuraltext.ingest.ChunkInput;
import dev.neuraltext.search.Leg;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.CaseStore;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/** Being written (issue 3). */
public final class HybridCaseRetriever {

    private HybridCaseRetriever() {
    }

    public static Builder builder(CaseStore store) {
        return new Builder();
    }

    /** Encodes the chunks in batches and upserts them. */
    public void index(List<ChunkInput> chunks) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Deletes chunks by id. */
    public void delete(Collection<String> ids) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public SearchResponse search(SearchRequest request) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The legs this retriever can run. */
    public Set<Leg> availableLegs() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public CaseStore store() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public static final class Builder {
        private Builder() {
        }

        public Builder embedder(Embedder embedder) {
            return this;
        }

        public Builder sparseEncoder(SparseEncoder encoder) {
            return this;
        }

        public Builder reranker(Reranker reranker) {
            return this;
        }

        public Builder adaptiveExtension(AdaptiveExtension extension) {
            return this;
        }

        public HybridCaseRetriever build() {
            return new HybridCaseRetriever();
        }
    }
}
