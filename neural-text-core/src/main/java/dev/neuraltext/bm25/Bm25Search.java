package dev.neuraltext.bm25;

import dev.neuraltext.fusion.LegResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * The top-k search of a {@link Bm25Index} over its {@link InvertedIndex}, scored by {@link Bm25FScorer}: document at a
 * time with MaxScore dynamic pruning (Turtle and Flood, 1995) over windows of doc ordinals, as Lucene's
 * {@code MaxScoreBulkScorer} does. In each window of {@code 1 << InvertedIndex.WINDOW_SHIFT} ordinals every query
 * term has an upper bound, its score at its largest {@code tf~} in that window (long postings) or overall (short
 * ones). Terms are sorted by bound; once the top k is full, the longest prefix of low-bound terms whose bounds add up
 * to less than the k-th score is <em>non-essential</em>: a document that has only those terms cannot enter the top k,
 * so candidates come from the essential terms alone, and a candidate's non-essential terms are looked up (skipping
 * their postings forward) only while its score could still reach the k-th score. A window whose bounds add up to less
 * than the k-th score is skipped whole. Bounds are widened by a relative {@code 1e-9}, so rounding never prunes a
 * document that could enter.
 *
 * <p>The results are identical to exhaustive scoring: the same documents, in the same order, with the same scores to
 * the last bit, because each returned score is summed in query-term order exactly as {@link Bm25Explanation} sums it.
 * The filter is tested on a candidate only once its score could enter the top k, and before the cut, so a filter that
 * excludes the best documents still fills the limit. Ties are broken by id (ascending). No per-document arrays are
 * allocated: the cost is in the postings read, not in the index size.
 *
 * <p>Stateless; the caller holds the index's read lock.
 */
final class Bm25Search {

    /** Relative widening of every upper bound and partial score in pruning decisions. */
    private static final double SLACK = 1 + 1e-9;

    private Bm25Search() {
    }

    /** A candidate in the top k. */
    private record Hit(int doc, String id, double score) {
    }

    /** Worst first: lowest score, then greatest id. */
    private static final Comparator<Hit> WORST_FIRST = (x, y) -> {
        int c = Double.compare(x.score(), y.score());
        return c != 0 ? c : y.id().compareTo(x.id());
    };

    /** The best {@code limit} documents for weighted query terms among those whose id {@code accept} admits. */
    static List<LegResult> search(InvertedIndex index, Bm25FScorer scorer, Map<String, Double> queryTerms, int limit,
            Predicate<String> accept) {
        if (index.live() == 0) {
            return List.of();
        }
        FieldScoring fields = index.fieldScoring();
        // the query's terms, in query order
        int m = 0;
        Postings[] postings = new Postings[queryTerms.size()];
        double[] weight = new double[postings.length];
        double[] globalBound = new double[postings.length];
        float[][] windowMax = new float[postings.length][];
        for (Map.Entry<String, Double> qt : queryTerms.entrySet()) {
            double qw = qt.getValue();
            int term = index.term(qt.getKey());
            if (term < 0 || qw <= 0) {
                continue;
            }
            postings[m] = index.postings(term);
            weight[m] = qw * Bm25FScorer.idf(index.live(), index.df(term));
            InvertedIndex.TermBound b = index.bound(term, fields);
            globalBound[m] = scorer.score(weight[m], b.maxTfTilde()) * SLACK;
            windowMax[m] = b.windowMax();
            m++;
        }
        if (m == 0) {
            return List.of();
        }
        int[] cursor = new int[m];
        double[] contribution = new double[m];
        int[] scoredDoc = new int[m];
        Arrays.fill(scoredDoc, -1);
        double[] bound = new double[m];
        int[] order = new int[m];
        double[] prefix = new double[m];
        PriorityQueue<Hit> top = new PriorityQueue<>(limit + 1, WORST_FIRST);
        double threshold = Double.NEGATIVE_INFINITY; // the k-th score once the top k is full
        int windows = (index.maxDoc() >> InvertedIndex.WINDOW_SHIFT) + 1;

        for (int window = 0; window < windows; window++) {
            int windowStart = window << InvertedIndex.WINDOW_SHIFT;
            int windowEnd = windowStart + (1 << InvertedIndex.WINDOW_SHIFT);
            // this window's bounds: the term's largest tf~ in it, where known; ordered ascending, with prefix sums
            for (int j = 0; j < m; j++) {
                float[] w = windowMax[j];
                bound[j] = w == null ? globalBound[j]
                        : window < w.length ? scorer.score(weight[j], w[window]) * SLACK : 0;
            }
            sortByBound(bound, order, m);
            for (int k = 0; k < m; k++) {
                prefix[k] = (k == 0 ? 0 : prefix[k - 1]) + bound[order[k]];
            }
            if (prefix[m - 1] * SLACK < threshold) {
                continue; // no document of this window can enter the top k
            }
            int essential = 0; // order[essential..m-1] are the essential terms
            while (essential < m && prefix[essential] * SLACK < threshold) {
                essential++;
            }
            while (true) {
                int doc = Integer.MAX_VALUE;
                for (int k = essential; k < m; k++) {
                    int j = order[k];
                    Postings p = postings[j];
                    int c = cursor[j] = advance(p, cursor[j], windowStart);
                    if (c < p.size && p.docs[c] < doc) {
                        doc = p.docs[c];
                    }
                }
                if (doc >= windowEnd) {
                    break;
                }
                double partial = 0;
                for (int k = essential; k < m; k++) {
                    int j = order[k];
                    Postings p = postings[j];
                    if (cursor[j] < p.size && p.docs[cursor[j]] == doc) {
                        partial += score(p, j, doc, cursor, fields, scorer, weight, contribution, scoredDoc);
                    }
                }
                boolean possible = true;
                for (int k = essential - 1; k >= 0; k--) { // non-essential terms, highest bound first
                    if ((partial + prefix[k]) * SLACK < threshold) {
                        possible = false;
                        break;
                    }
                    int j = order[k];
                    Postings p = postings[j];
                    cursor[j] = advance(p, cursor[j], doc);
                    if (cursor[j] < p.size && p.docs[cursor[j]] == doc) {
                        partial += score(p, j, doc, cursor, fields, scorer, weight, contribution, scoredDoc);
                    }
                }
                if (!possible || partial <= 0) {
                    continue;
                }
                String id = index.id(doc);
                if (id == null) {
                    continue; // deleted, awaiting compaction
                }
                double score = 0; // in query order, as the explanation and exhaustive scoring sum it
                for (int j = 0; j < m; j++) {
                    if (scoredDoc[j] == doc) {
                        score += contribution[j];
                    }
                }
                if (top.size() == limit) {
                    Hit worst = top.peek();
                    if (score < worst.score() || (score == worst.score() && id.compareTo(worst.id()) > 0)) {
                        continue; // could not enter the top k, whatever the filter says
                    }
                }
                if (accept != null && !accept.test(id)) {
                    continue;
                }
                top.add(new Hit(doc, id, score));
                if (top.size() > limit) {
                    top.poll();
                }
                if (top.size() == limit) {
                    threshold = top.peek().score();
                    while (essential < m && prefix[essential] * SLACK < threshold) {
                        essential++;
                    }
                    if (essential == m) {
                        break; // nothing left in this window can enter
                    }
                }
            }
        }
        List<LegResult> out = new ArrayList<>(top.size());
        while (!top.isEmpty()) {
            Hit h = top.poll();
            out.add(new LegResult(h.id(), h.score()));
        }
        Collections.reverse(out);
        return List.copyOf(out);
    }

    /** Scores term {@code j} at {@code doc} (its cursor is on doc's first entry) and moves the cursor past doc. */
    private static double score(Postings p, int j, int doc, int[] cursor, FieldScoring fields, Bm25FScorer scorer,
            double[] weight, double[] contribution, int[] scoredDoc) {
        int i = cursor[j];
        double tf = 0;
        do {
            tf += fields.tf(p.fieldTf[i], doc);
            i++;
        } while (i < p.size && p.docs[i] == doc);
        cursor[j] = i;
        if (tf <= 0) {
            return 0;
        }
        contribution[j] = scorer.score(weight[j], tf);
        scoredDoc[j] = doc;
        return contribution[j];
    }

    /** The first entry at or after {@code from} whose doc is {@code >= target}: galloping, then binary search. */
    static int advance(Postings p, int from, int target) {
        int[] docs = p.docs;
        int size = p.size;
        if (from >= size || docs[from] >= target) {
            return from;
        }
        int step = 1;
        int lo = from; // docs[lo] < target
        int hi = from + 1;
        while (hi < size && docs[hi] < target) {
            lo = hi;
            step <<= 1;
            hi = from + step;
        }
        hi = Math.min(hi, size); // the answer is in (lo, hi]
        while (lo + 1 < hi) {
            int mid = (lo + hi) >>> 1;
            if (docs[mid] < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** Fills {@code order[0..m-1]} with the term indexes sorted by {@code bound} ascending (insertion sort: m is small). */
    private static void sortByBound(double[] bound, int[] order, int m) {
        for (int k = 0; k < m; k++) {
            int j = k;
            while (j > 0 && bound[order[j - 1]] > bound[k]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = k;
        }
    }
}
