package dev.neuraltext.qdrant;

import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.IndexedCase;
import java.util.Collection;
import java.util.List;

/** Being written (issue 7). */
public final class QdrantCaseStore implements CaseStore {

    private QdrantCaseStore() {
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void upsert(List<IndexedCase> cases) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public void delete(Collection<String> ids) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public void deleteWhere(PayloadFilter filter) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public long count(PayloadFilter filter) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public List<SearchHit> search(HybridQuery query) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Builder. */
    public static final class Builder {
        private Builder() {
        }

        /** Host and port of the Qdrant gRPC endpoint (default port 6334). */
        public Builder host(String host, int port) {
            return this;
        }

        public Builder collection(String name) {
            return this;
        }

        /** The dense vector dimension (the embedder's), or 0 for a collection without a dense vector. */
        public Builder denseDimension(int dimension) {
            return this;
        }

        public QdrantCaseStore build() {
            return new QdrantCaseStore();
        }
    }
}
