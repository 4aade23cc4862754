package dev.neuraltext.fusion;

/** A retrieval leg: one way of ranking chunks against a query, fused with the others. */
public enum Leg {
    /** Okapi BM25 over code-aware terms ({@link dev.neuraltext.text.CodeDomainTokenizer}); raw score is the BM25 sum. */
    BM25,
    /** Cosine similarity of dense embeddings; raw score is the cosine in [-1, 1]. */
    DENSE,
    /** Dot product of sparse neural (SPLADE-style) vectors; raw score is the dot product. */
    SPARSE;

    /** The lower-case name used on command lines and in reports ({@code bm25}, {@code dense}, {@code sparse}). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Parses a label, ignoring case. */
    public static Leg fromLabel(String label) {
        for (Leg leg : values()) {
            if (leg.label().equalsIgnoreCase(label == null ? "" : label.trim())) {
                return leg;
            }
        }
        throw new IllegalArgumentException("unknown leg '" + label + "', expected one of bm25, dense, sparse");
    }
}
