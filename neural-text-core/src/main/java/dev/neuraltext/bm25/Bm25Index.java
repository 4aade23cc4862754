package dev.neuraltext.bm25;

import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.util.List;
import java.util.Map;

/** Being written (issue 2): in-memory BM25F index over code-aware terms. */
public final class Bm25Index {

    private Bm25Index() {
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Adds or replaces document {@code id} with its named text fields and filterable payload. */
    public void upsert(String id, Map<String, String> fields, Payload payload) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Deletes {@code id}; returns whether it was present. */
    public boolean delete(String id) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The number of documents. */
    public int size() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The top {@code limit} documents for {@code query} among those matching {@code filter}, best first. */
    public List<LegResult> search(String query, int limit, PayloadFilter filter) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Builder; defaults: {@link CodeDomainTokenizer#standard()}, {@link Bm25Params#defaults()}, field weights 1.0. */
    public static final class Builder {
        private Builder() {
        }

        public Builder tokenizer(CodeDomainTokenizer tokenizer) {
            return this;
        }

        public Builder params(Bm25Params params) {
            return this;
        }

        public Builder fieldWeight(String field, double weight) {
            return this;
        }

        public Bm25Index build() {
            return new Bm25Index();
        }
    }
}
