package dev.neuraltext.bm25;

import java.util.Objects;

/**
 * The BM25F formula, kept apart from any index (as Lucene keeps {@code BM25Similarity} apart from the postings): the
 * IDF of a term, the length-normalised term frequency of one field, and the saturation that turns the weighted sum
 * over fields into a document's score for the term.
 * <pre>
 *   idf(t)     = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))                    {@link #idf(long, long)}
 *   tf_f       = tf(t,f,d) * w_f / (1 - b_f + b_f / avglen(f) * len(f,d))    {@link #fieldTf(double, int, double, double, int)}
 *   tf~(t,d)   = sum_f tf_f
 *   score(t,d) = q(t) * idf(t) * tf~ / (k1 + tf~)                            {@link #score(double, double)}
 * </pre>
 * With one field of weight 1 this is Lucene's {@code BM25Similarity} (without the constant {@code (k1 + 1)} factor
 * that Lucene dropped in version 8), so a term contributes at most {@code q(t) * idf(t)}. Every place that scores
 * BM25 (the embedded {@link Bm25Index}'s search and its {@link Bm25Explanation}, and the Qdrant module's client-side
 * encoder) computes through this class, in this order of operations, so that they agree to the last bit.
 *
 * <p>Immutable and thread-safe.
 */
public final class Bm25FScorer {

    private final Bm25Params params;

    /** A scorer with {@code params}' {@code k1}; the per-field {@code b} is given with each field. */
    public Bm25FScorer(Bm25Params params) {
        this.params = Objects.requireNonNull(params, "params");
    }

    /** The parameters. */
    public Bm25Params params() {
        return params;
    }

    /**
     * Lucene's BM25 IDF: {@code ln(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5))}; always
     * positive.
     *
     * @param documents         {@code N}, the number of live documents
     * @param documentFrequency the number of documents containing the term in any field
     */
    public static double idf(long documents, long documentFrequency) {
        return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
    }

    /**
     * The {@code b / avglen(f)} factor of a field's length normalisation, computed once per field and search; 0 when
     * the average length is not positive (no document has the field).
     */
    public static double lengthFactor(double b, double averageLength) {
        return averageLength > 0 ? b / averageLength : 0;
    }

    /**
     * The factor of a field's term frequency in a document of that field length:
     * {@code weight / (1 - b + lengthFactor * length)}. It depends on the document, not on the term, so a search can
     * compute it once per length (as Lucene caches its norms) and multiply.
     *
     * @param weight       the field's weight {@code w_f}
     * @param b            the field's {@code b}
     * @param lengthFactor {@link #lengthFactor(double, double)} of the field
     * @param length       the number of terms in the field of this document
     */
    public static double fieldNorm(double weight, double b, double lengthFactor, int length) {
        return weight / (1 - b + lengthFactor * length);
    }

    /**
     * One field's weighted, length-normalised term frequency:
     * {@code tf * fieldNorm(weight, b, lengthFactor, length)}.
     *
     * @param weight       the field's weight {@code w_f}
     * @param tf           the term's occurrences in the field (1 in a binary field)
     * @param b            the field's {@code b}
     * @param lengthFactor {@link #lengthFactor(double, double)} of the field
     * @param length       the number of terms in the field of this document
     */
    public static double fieldTf(double weight, int tf, double b, double lengthFactor, int length) {
        return tf * fieldNorm(weight, b, lengthFactor, length);
    }

    /** The saturation {@code tfTilde / (k1 + tfTilde)}, in [0, 1): the document-side weight of a term. */
    public double saturation(double tfTilde) {
        return tfTilde / (params.k1() + tfTilde);
    }

    /**
     * A term's contribution to a document's score: {@code termWeight * tfTilde / (k1 + tfTilde)}, where
     * {@code termWeight = q(t) * idf(t)}. Increases with {@code tfTilde}, so the largest {@code tfTilde} of a term bounds
     * its contribution to any document.
     */
    public double score(double termWeight, double tfTilde) {
        return termWeight * tfTilde / (params.k1() + tfTilde);
    }

    @Override
    public String toString() {
        return "Bm25FScorer[k1=" + params.k1() + "]";
    }
}
