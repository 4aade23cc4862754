package dev.neuraltext.store;

import dev.neuraltext.NonRetriableNeuralTextException;
import java.util.List;
import java.util.Objects;

/**
 * A saved index holds vectors from other models than the ones expected (another embedder, dimension or sparse
 * encoder): searching it would compare incompatible vectors, so the index should be rebuilt. Lexical settings
 * (tokenizer, BM25) never cause this for the embedded store, which rebuilds its BM25 postings on load.
 */
public class IndexMismatchException extends NonRetriableNeuralTextException {

    private final IndexFingerprint stored;
    private final IndexFingerprint expected;

    /**
     * A mismatch between what an index holds and what is expected.
     *
     * @param where    what was checked (e.g. the index folder)
     * @param stored   the fingerprint the index was built with
     * @param expected the fingerprint of the current configuration
     */
    public IndexMismatchException(String where, IndexFingerprint stored, IndexFingerprint expected) {
        super(where + " was built with other models: " + String.join("; ", Objects.requireNonNull(stored, "stored")
                .vectorDifferences(Objects.requireNonNull(expected, "expected"))) + "; rebuild the index", null);
        this.stored = stored;
        this.expected = expected;
    }

    /** The fingerprint the index was built with. */
    public IndexFingerprint stored() {
        return stored;
    }

    /** The fingerprint of the current configuration. */
    public IndexFingerprint expected() {
        return expected;
    }

    /** One readable line per differing vector component ({@link IndexFingerprint#vectorDifferences}). */
    public List<String> differences() {
        return stored.vectorDifferences(expected);
    }
}
