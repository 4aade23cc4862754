package dev.neuraltext.bm25;

/**
 * The per-field inputs of {@link Bm25FScorer#fieldTf} for the searches of one index version, indexed by field ordinal:
 * weight, {@code b}, length factor ({@code b / avglen}), the per-document lengths (shared with the index, read under
 * its read lock), and, as Lucene caches its norms, a byte per document and field with the length when it is below
 * {@link #LONG_LENGTH} and a table of {@link Bm25FScorer#fieldNorm} for those lengths. A search thus reads a byte per
 * document, which stays in the processor's caches at a million documents, where the int lengths would not, and
 * multiplies where it would divide; a longer field reads its int length and computes its norm, to the same bits.
 *
 * @param version     the index version these statistics belong to
 * @param shortLength per field and document, the length, or {@link #LONG_LENGTH} for {@code LONG_LENGTH} and above
 * @param norm        per field, {@code norm[f][l] = fieldNorm(weight[f], b[f], lengthFactor[f], l)} for every length
 *                    below {@link #LONG_LENGTH}
 */
record FieldScoring(long version, double[] weight, double[] b, double[] lengthFactor, int[][] lengths,
        byte[][] shortLength, double[][] norm) {

    /** The byte that stands for a length too long for a byte (255 and above): the int length is read instead. */
    static final int LONG_LENGTH = 255;

    /** The weighted, length-normalised term frequency of one posting entry (field and tf packed) of {@code doc}. */
    double tf(int packedFieldTf, int doc) {
        int f = packedFieldTf >>> Postings.FIELD_SHIFT;
        int length = shortLength[f][doc] & 0xFF;
        double fieldNorm = length != LONG_LENGTH ? norm[f][length]
                : Bm25FScorer.fieldNorm(weight[f], b[f], lengthFactor[f], lengths[f][doc]);
        return (packedFieldTf & Postings.TF_MASK) * fieldNorm;
    }

    /** The byte {@link #shortLength} keeps for a length. */
    static byte shortLength(int length) {
        return (byte) Math.min(length, LONG_LENGTH);
    }
}
