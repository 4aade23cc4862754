package dev.neuraltext.store;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.internal.Checks;

/**
 * A chunk with its encodings, ready for {@link CaseStore#upsert}. BM25 terms are the store's business.
 *
 * @param chunk  the chunk
 * @param dense  its dense embedding, or null when no embedder is configured
 * @param sparse its sparse neural vector, or null when no sparse encoder is configured
 */
public record IndexedCase(ChunkInput chunk, float[] dense, SparseVector sparse) {
    public IndexedCase {
        Checks.notNull(chunk, "chunk");
        if (dense != null) {
            dense = Checks.finite(dense, "dense (chunk '" + chunk.id() + "')").clone();
            if (dense.length == 0) {
                throw new IllegalArgumentException("dense (chunk '" + chunk.id() + "') must not be empty");
            }
        }
    }

    /** A chunk without vectors (BM25 only). */
    public static IndexedCase of(ChunkInput chunk) {
        return new IndexedCase(chunk, null, null);
    }

    /** A copy of the dense vector, or null. */
    @Override
    public float[] dense() {
        return dense == null ? null : dense.clone();
    }
}
