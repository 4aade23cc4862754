package dev.neuraltext.bm25;

import dev.neuraltext.fusion.LegResult;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * The top-k search of a {@link Bm25Index} over its {@link InvertedIndex}, scored by {@link Bm25FScorer}: term at a
 * time, every posting of every query term scored. The filter is tested on a candidate only once its score could enter
 * the top k, and before the cut, so a filter that excludes the best documents still fills the limit. Ties are broken
 * by id (ascending).
 *
 * <p>Stateless; the caller holds the index's read lock.
 */
final class Bm25Search {

    private Bm25Search() {
    }

    /** The best {@code limit} documents for weighted query terms among those whose id {@code accept} admits. */
    static List<LegResult> exhaustive(InvertedIndex index, Bm25FScorer scorer, Map<String, Double> queryTerms,
            int limit, Predicate<String> accept) {
        if (index.live() == 0) {
            return List.of();
        }
        int fields = index.fieldCount();
        double[] w = new double[fields];
        double[] b = new double[fields];
        double[] lengthFactor = new double[fields];
        int[][] lengths = new int[fields][];
        for (int f = 0; f < fields; f++) {
            w[f] = index.fieldWeight(f);
            b[f] = index.fieldB(f);
            lengthFactor[f] = Bm25FScorer.lengthFactor(b[f], index.averageLength(f));
            lengths[f] = index.fieldLengths(f);
        }
        double[] acc = new double[index.maxDoc()];
        int[] touched = new int[64];
        int touchedCount = 0;
        for (Map.Entry<String, Double> qt : queryTerms.entrySet()) {
            double qw = qt.getValue();
            int term = index.term(qt.getKey());
            if (term < 0 || qw <= 0) {
                continue;
            }
            double termWeight = qw * Bm25FScorer.idf(index.live(), index.df(term));
            Postings p = index.postings(term);
            int[] docs = p.docs;
            int[] ftf = p.fieldTf;
            int size = p.size;
            int i = 0;
            while (i < size) {
                int doc = docs[i];
                double tf = 0;
                do {
                    int packed = ftf[i];
                    int f = packed >>> Postings.FIELD_SHIFT;
                    tf += Bm25FScorer.fieldTf(w[f], packed & Postings.TF_MASK, b[f], lengthFactor[f], lengths[f][doc]);
                    i++;
                } while (i < size && docs[i] == doc);
                if (tf <= 0 || index.id(doc) == null) {
                    continue;
                }
                if (acc[doc] == 0) {
                    if (touchedCount == touched.length) {
                        touched = Arrays.copyOf(touched, touchedCount * 2);
                    }
                    touched[touchedCount++] = doc;
                }
                acc[doc] += scorer.score(termWeight, tf);
            }
        }
        PriorityQueue<Integer> heap = new PriorityQueue<>(Math.min(limit, touchedCount) + 1,
                (x, y) -> worseFirst(index, acc, x, y));
        for (int t = 0; t < touchedCount; t++) {
            int doc = touched[t];
            double score = acc[doc];
            if (heap.size() == limit) {
                int worst = heap.peek();
                if (score < acc[worst] || (score == acc[worst] && index.id(doc).compareTo(index.id(worst)) > 0)) {
                    continue; // could not enter the top-k, whatever the filter says
                }
            }
            if (accept != null && !accept.test(index.id(doc))) {
                continue;
            }
            heap.add(doc);
            if (heap.size() > limit) {
                heap.poll();
            }
        }
        LegResult[] out = new LegResult[heap.size()];
        for (int k = out.length - 1; k >= 0; k--) {
            int doc = heap.poll();
            out[k] = new LegResult(index.id(doc), acc[doc]);
        }
        return List.of(out);
    }

    /** Orders so that the worst result (lowest score, then greatest id) comes first. */
    private static int worseFirst(InvertedIndex index, double[] acc, int x, int y) {
        int c = Double.compare(acc[x], acc[y]);
        if (c != 0) {
            return c;
        }
        return index.id(y).compareTo(index.id(x));
    }
}
