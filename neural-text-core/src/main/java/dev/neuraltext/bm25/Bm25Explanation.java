package dev.neuraltext.bm25;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why a document scores what it scores in a {@link Bm25Index}: {@code score = sum of contributions}, each
 * {@code queryWeight * idf * tfTilde / (k1 + tfTilde)} ({@link Bm25FScorer}). Computed with the same scorer and the
 * same order of operations as the search, so {@link #score()} equals the score the search gives the document.
 *
 * @param id        the document id
 * @param score     the document's score for the query
 * @param documents the number of documents in the index ({@code N})
 * @param terms     the matching query terms, in query order
 */
public record Bm25Explanation(String id, double score, int documents, List<TermExplanation> terms) {

    /** Copies {@code terms}. */
    public Bm25Explanation {
        terms = List.copyOf(terms);
    }

    /**
     * The statistics of one field for one term of one document.
     *
     * @param tf            occurrences of the term in the field (1 in a binary field)
     * @param length        terms in the field
     * @param averageLength average length of the field over the documents that have it
     * @param weight        the field's weight
     * @param b             the field's length normalisation
     */
    public record FieldStats(int tf, int length, double averageLength, double weight, double b) {
    }

    /**
     * One query term's part of an explanation.
     *
     * @param term         the term
     * @param queryWeight  its weight in the query
     * @param df           documents containing it
     * @param idf          its IDF
     * @param tfTilde      the weighted, length-normalised term frequency summed over the fields
     * @param contribution {@code queryWeight * idf * tfTilde / (k1 + tfTilde)}
     * @param fields       per field statistics, by field name
     */
    public record TermExplanation(String term, double queryWeight, int df, double idf, double tfTilde,
            double contribution, Map<String, FieldStats> fields) {
        /** Copies {@code fields}, sorted by name. */
        public TermExplanation {
            fields = Collections.unmodifiableMap(new TreeMap<>(fields));
        }
    }

    /** Explains document {@code doc} of {@code index} for weighted query terms; the caller holds the read lock. */
    static Bm25Explanation of(InvertedIndex index, Bm25FScorer scorer, Map<String, Double> queryTerms, int doc) {
        List<TermExplanation> terms = new ArrayList<>();
        double total = 0;
        for (Map.Entry<String, Double> qt : queryTerms.entrySet()) {
            int term = index.term(qt.getKey());
            if (term < 0 || qt.getValue() <= 0) {
                continue;
            }
            Postings.Cursor postings = index.postings(term).cursor();
            if (postings.advance(doc) != doc) {
                continue;
            }
            TreeMap<String, FieldStats> fields = new TreeMap<>();
            double tf = 0;
            for (; postings.doc() == doc; postings.next()) {
                int f = postings.fieldTf() >>> Postings.FIELD_SHIFT;
                int raw = postings.fieldTf() & Postings.TF_MASK;
                double avg = index.averageLength(f);
                double b = index.fieldB(f);
                int length = index.fieldLength(f, doc);
                fields.put(index.fieldName(f), new FieldStats(raw, length, avg, index.fieldWeight(f), b));
                tf += Bm25FScorer.fieldTf(index.fieldWeight(f), raw, b, Bm25FScorer.lengthFactor(b, avg), length);
            }
            if (tf <= 0) {
                continue;
            }
            int n = index.df(term);
            double idf = Bm25FScorer.idf(index.live(), n);
            double contribution = scorer.score(qt.getValue() * idf, tf);
            total += contribution;
            terms.add(new TermExplanation(qt.getKey(), qt.getValue(), n, idf, tf, contribution, fields));
        }
        return new Bm25Explanation(index.id(doc), total, index.live(), terms);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s: %.4f (N=%d)", id, score, documents));
        for (TermExplanation t : terms) {
            sb.append(String.format(Locale.ROOT, "%n  %s: %.4f = q %.2f * idf %.4f (df %d) * tf~ %.4f saturated",
                    t.term(), t.contribution(), t.queryWeight(), t.idf(), t.df(), t.tfTilde()));
            t.fields().forEach((f, st) -> sb.append(String.format(Locale.ROOT,
                    "%n    %s: tf %d, length %d / avg %.2f, weight %.2f, b %.2f", f, st.tf(), st.length(),
                    st.averageLength(), st.weight(), st.b())));
        }
        return sb.toString();
    }
}
