package dev.neuraltext.bm25;

/**
 * The per-field inputs of {@link Bm25FScorer#fieldTf} for one search, indexed by field ordinal: weight, {@code b},
 * length factor ({@code b / avglen}) and the per-document lengths (shared with the index, read under its read lock).
 */
record FieldScoring(double[] weight, double[] b, double[] lengthFactor, int[][] lengths) {

    /** The weighted, length-normalised term frequency of one posting entry (field and tf packed) of {@code doc}. */
    double tf(int packedFieldTf, int doc) {
        int f = packedFieldTf >>> Postings.FIELD_SHIFT;
        return Bm25FScorer.fieldTf(weight[f], packedFieldTf & Postings.TF_MASK, b[f], lengthFactor[f],
                lengths[f][doc]);
    }
}
