package dev.neuraltext.bm25;

import dev.neuraltext.fusion.LegResult;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The top-k search of a {@link Bm25Index} over its {@link InvertedIndex}, scored by {@link Bm25FScorer}: document at a
 * time with block-max MaxScore dynamic pruning (Turtle and Flood, 1995; Ding and Suel, 2011), as Lucene's
 * {@code MaxScoreBulkScorer} does. Postings of at least {@link InvertedIndex#BLOCK_SIZE} entries carry per-block
 * bounds (the largest {@code tf~} in each block of about 128 entries); shorter ones a single bound. The doc ordinals are
 * walked in windows that end where a block of an essential term ends (but span at least {@link #MIN_WINDOW_PER_TERM}
 * ordinals per essential term, and more, up to {@link #MAX_MIN_WINDOW}, while windows average fewer than
 * {@link #MIN_WINDOW_PER_TERM} candidates per term, so that bounds are not recomputed for every few documents). In each window every query
 * term has an upper bound, its score at its largest {@code tf~} over the blocks the window touches. Terms are sorted
 * by bound; once the top k is full, the longest prefix of low-bound terms whose bounds add up to less than the k-th
 * score is <em>non-essential</em>: a document that has only those terms cannot enter the top k, so candidates come
 * from the essential terms alone, and a candidate's non-essential terms are looked up (skipping their postings
 * forward) only while its score could still reach the k-th score. A window whose bounds add up to less than the k-th
 * score is skipped whole. Bounds are widened by a relative {@code 1e-9}, so rounding never prunes a document that
 * could enter.
 *
 * <p>The results are identical to exhaustive scoring: the same documents, in the same order, with the same scores to
 * the last bit, because each returned score is summed in query-term order exactly as {@link Bm25Explanation} sums it.
 * The filter is tested on a candidate only once its score could enter the top k, and before the cut, so a filter that
 * excludes the best documents still fills the limit. Ties are broken by doc ordinal (ascending: the document indexed
 * first wins, as Lucene breaks ties by doc id), so a document that only ties the k-th score is rejected with one
 * comparison. The top k is kept in primitive arrays, no object is made per candidate, and nothing allocated grows with
 * the index: the cost is in the postings read.
 *
 * <p>Stateless; the caller holds the index's read lock.
 */
final class Bm25Search {

    /** Relative widening of every upper bound and partial score in pruning decisions. */
    private static final double SLACK = 1 + 1e-9;

    /** The least ordinals a window spans per essential term (Lucene's {@code MaxScoreBulkScorer} uses 32 too). */
    static final int MIN_WINDOW_PER_TERM = 32;

    /**
     * The most a window's least span grows to when windows yield few candidates (Lucene's {@code MaxScoreBulkScorer}
     * grows its minimum window the same way, up to its inner window of 4,096).
     */
    static final int MAX_MIN_WINDOW = 4096;

    /** Documents per inner window, scored term at a time into per-term score arrays and a match bitset. */
    static final int INNER_WINDOW = 256;

    private Bm25Search() {
    }

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
        InvertedIndex.TermBound[] bounds = new InvertedIndex.TermBound[postings.length];
        for (Map.Entry<String, Double> qt : queryTerms.entrySet()) {
            double qw = qt.getValue();
            int term = index.term(qt.getKey());
            if (term < 0 || qw <= 0) {
                continue;
            }
            postings[m] = index.postings(term);
            weight[m] = qw * Bm25FScorer.idf(index.live(), index.df(term));
            bounds[m] = index.bound(term, fields);
            globalBound[m] = scorer.score(weight[m], bounds[m].maxTfTilde()) * SLACK;
            m++;
        }
        if (m == 0) {
            return List.of();
        }
        int[] cursor = new int[m];
        int[] blockCursor = new int[m];
        double[] contribution = new double[m];
        int[] scoredDoc = new int[m];
        Arrays.fill(scoredDoc, -1);
        double[] bound = new double[m];
        int[] order = new int[m];
        double[] prefix = new double[m];
        boolean[] essentialTerm = new boolean[m];
        for (int k = 0; k < m; k++) {
            order[k] = k;
            essentialTerm[k] = true;
        }
        double[][] termScore = new double[m][INNER_WINDOW];
        double[] partialSum = new double[INNER_WINDOW];
        long[] matched = new long[INNER_WINDOW / Long.SIZE];
        TopHits top = new TopHits(limit);
        double threshold = Double.NEGATIVE_INFINITY; // the k-th score once the top k is full
        int maxDoc = index.maxDoc();
        int essential = 0; // order[essential..m-1] are the essential terms
        int windowStart = 0;
        long windows = 0;
        long candidates = 0;
        int minWindow = 1; // doubles while windows average fewer than MIN_WINDOW_PER_TERM candidates per term

        while (windowStart < maxDoc) {
            int windowEnd = maxDoc;
            boolean bounded = threshold != Double.NEGATIVE_INFINITY;
            if (bounded) {
                // end where the first block of an essential term ends, but not too soon; then bound every term on it
                for (int k = essential; k < m; k++) {
                    int j = order[k];
                    InvertedIndex.TermBound b = bounds[j];
                    if (b.blocks() > 0) {
                        int c = blockCursor[j] = seekBlock(b, blockCursor[j], windowStart);
                        if (c < b.blocks()) {
                            windowEnd = Math.min(windowEnd, b.blockLast()[c] + 1);
                        }
                    }
                }
                // bounds cost a pass over every term per window: when pruning leaves few candidates per window,
                // windows widen, so that computing bounds never costs more than scoring what they let through
                minWindow = candidates < windows * MIN_WINDOW_PER_TERM * m ? Math.min(minWindow << 1, MAX_MIN_WINDOW)
                        : 1;
                windows++;
                long least = windowStart + Math.max((long) MIN_WINDOW_PER_TERM * (m - essential), minWindow);
                windowEnd = (int) Math.min(maxDoc, Math.max(windowEnd, least));
                for (int j = 0; j < m; j++) {
                    bound[j] = windowBound(j, windowStart, windowEnd, postings, bounds, cursor, blockCursor,
                            globalBound, weight, scorer);
                }
                sortByBound(bound, order, m);
                for (int k = 0; k < m; k++) {
                    prefix[k] = (k == 0 ? 0 : prefix[k - 1]) + bound[order[k]];
                }
                if (prefix[m - 1] * SLACK < threshold) {
                    windowStart = windowEnd; // no document of this window can enter the top k
                    continue;
                }
                essential = 0;
                while (essential < m && prefix[essential] * SLACK < threshold) {
                    essential++;
                }
                for (int k = 0; k < m; k++) {
                    essentialTerm[order[k]] = k >= essential;
                }
            }
            int nextWindow = windowEnd;
            boolean stop = false;
            for (int innerStart = windowStart; innerStart < windowEnd && !stop; innerStart += INNER_WINDOW) {
                int innerEnd = Math.min(windowEnd, innerStart + INNER_WINDOW);
                // essential terms, one at a time over the inner window: each one's contribution per document, and
                // their sum (in any order: it only decides pruning, with slack)
                boolean any = false;
                for (int k = essential; k < m; k++) {
                    int j = order[k];
                    any |= accumulate(postings[j], bounds[j], j, innerStart, innerEnd, cursor, fields, scorer,
                            weight, termScore[j], partialSum, matched);
                }
                if (!any) {
                    continue;
                }
                for (int w = 0; w < matched.length; w++) {
                    long bits = matched[w];
                    matched[w] = 0;
                    while (bits != 0) {
                        int o = (w << 6) + Long.numberOfTrailingZeros(bits);
                        bits &= bits - 1;
                        int doc = innerStart + o;
                        candidates++;
                        double partial = partialSum[o];
                        partialSum[o] = 0;
                        boolean possible = true;
                        for (int k = essential - 1; k >= 0; k--) { // non-essential terms, highest bound first
                            if ((partial + prefix[k]) * SLACK < threshold) {
                                possible = false;
                                break;
                            }
                            int j = order[k];
                            Postings p = postings[j];
                            cursor[j] = advance(p, bounds[j], cursor[j], doc);
                            if (cursor[j] < p.size && p.docs[cursor[j]] == doc) {
                                partial += score(p, j, doc, cursor, fields, scorer, weight, contribution, scoredDoc);
                            }
                        }
                        // partial now sums every term the document has, in another order than the exact sum: with
                        // the slack it can tell a document that cannot reach the k-th score without that sum
                        if (possible && partial * SLACK >= threshold) {
                            double score = 0; // in query order, as the explanation and exhaustive scoring sum it
                            for (int j = 0; j < m; j++) {
                                if (essentialTerm[j]) {
                                    score += termScore[j][o]; // 0 where absent, which leaves the sum unchanged
                                } else if (scoredDoc[j] == doc) {
                                    score += contribution[j];
                                }
                            }
                            // the filter is asked only about documents that could enter the top k; a null id is a
                            // deleted document (looked up last: the id table is the one array here as long as the index)
                            String id;
                            if (top.competitive(score, doc) && (id = index.id(doc)) != null
                                    && (accept == null || accept.test(id))) {
                                top.add(score, doc);
                                if (top.full()) {
                                    threshold = top.worstScore();
                                }
                            }
                        }
                        for (int k = essential; k < m; k++) {
                            termScore[order[k]][o] = 0;
                        }
                    }
                }
                if (threshold != Double.NEGATIVE_INFINITY) {
                    if (!bounded) {
                        nextWindow = innerEnd; // the top k just filled: from here on windows and bounds can prune
                        stop = true;
                    } else {
                        while (essential < m && prefix[essential] * SLACK < threshold) {
                            essentialTerm[order[essential]] = false;
                            essential++;
                        }
                        stop = essential == m; // nothing left in this window can enter
                    }
                }
            }
            windowStart = nextWindow;
        }
        return top.bestFirst(index);
    }

    /**
     * Term {@code j}'s bound on the window {@code [start, end)}: for blocked postings its score at the largest
     * {@code tf~} of the blocks the window touches, otherwise its global bound while it has a posting in the window.
     */
    private static double windowBound(int j, int start, int end, Postings[] postings, InvertedIndex.TermBound[] bounds,
            int[] cursor, int[] blockCursor, double[] globalBound, double[] weight, Bm25FScorer scorer) {
        InvertedIndex.TermBound b = bounds[j];
        if (b.blocks() == 0) {
            Postings p = postings[j];
            int c = cursor[j] = advance(p, cursor[j], start);
            return c < p.size && p.docs[c] < end ? globalBound[j] : 0;
        }
        int c = blockCursor[j] = seekBlock(b, blockCursor[j], start);
        int[] last = b.blockLast();
        float[] max = b.blockMax();
        float tf = 0;
        for (; c < b.blocks(); c++) {
            tf = Math.max(tf, max[c]);
            if (last[c] >= end - 1) {
                break;
            }
        }
        return tf == 0 ? 0 : scorer.score(weight[j], tf) * SLACK;
    }

    /** The first block at or after {@code from} whose last doc is at least {@code target}. */
    private static int seekBlock(InvertedIndex.TermBound b, int from, int target) {
        int[] last = b.blockLast();
        int c = from;
        while (c < b.blocks() && last[c] < target) {
            c++;
        }
        return c;
    }

    /**
     * The best hits so far, in primitive arrays: a min-heap of at most {@code limit} (score, doc ordinal) pairs, worst
     * (lowest score, then greatest ordinal) at the root. Documents arrive in ordinal order, so a document that only
     * ties the worst score never enters: ties cost one comparison, however many documents share a score.
     */
    private static final class TopHits {
        private final int limit;
        private double[] score;
        private int[] doc;
        private int size;

        TopHits(int limit) {
            this.limit = limit;
            int capacity = Math.min(limit, 128); // grows to the limit only when that many documents match
            this.score = new double[capacity];
            this.doc = new int[capacity];
        }

        boolean full() {
            return size == limit;
        }

        double worstScore() {
            return score[0];
        }

        /** Whether a hit with this score and ordinal would enter. */
        boolean competitive(double s, int d) {
            return size < limit || s > score[0] || (s == score[0] && d < doc[0]);
        }

        /** Adds a competitive hit, dropping the worst when full. */
        void add(double s, int d) {
            if (size < limit) {
                ensureCapacity();
                int k = size++;
                while (k > 0) { // sift up
                    int parent = (k - 1) >>> 1;
                    if (!worse(s, d, score[parent], doc[parent])) {
                        break;
                    }
                    score[k] = score[parent];
                    doc[k] = doc[parent];
                    k = parent;
                }
                score[k] = s;
                doc[k] = d;
            } else {
                siftDown(0, s, d);
            }
        }

        private void ensureCapacity() {
            if (size == score.length) {
                int capacity = (int) Math.min(limit, 2L * score.length);
                score = Arrays.copyOf(score, capacity);
                doc = Arrays.copyOf(doc, capacity);
            }
        }

        private void siftDown(int k, double s, int d) {
            while (true) {
                int child = 2 * k + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && worse(score[child + 1], doc[child + 1], score[child], doc[child])) {
                    child++;
                }
                if (!worse(score[child], doc[child], s, d)) {
                    break;
                }
                score[k] = score[child];
                doc[k] = doc[child];
                k = child;
            }
            score[k] = s;
            doc[k] = d;
        }

        /** Whether (s1, d1) ranks below (s2, d2): lower score, or equal score and greater ordinal. */
        private static boolean worse(double s1, int d1, double s2, int d2) {
            return s1 < s2 || (s1 == s2 && d1 > d2);
        }

        /** The hits with their ids, best first; empties the heap. */
        List<LegResult> bestFirst(InvertedIndex index) {
            LegResult[] out = new LegResult[size];
            while (size > 0) {
                double s = score[0];
                int d = doc[0];
                size--;
                if (size > 0) {
                    siftDown(0, score[size], doc[size]);
                }
                out[size] = new LegResult(index.id(d), s);
            }
            return List.of(out);
        }
    }

    /**
     * Scores term {@code j} on every document of {@code [start, end)} it has: its contribution into
     * {@code termScore[doc - start]}, added to {@code partialSum}, the document's bit set in {@code matched}; moves its
     * cursor to {@code end}. Returns whether any document got a positive contribution.
     */
    private static boolean accumulate(Postings p, InvertedIndex.TermBound b, int j, int start, int end, int[] cursor,
            FieldScoring fields, Bm25FScorer scorer, double[] weight, double[] termScore, double[] partialSum,
            long[] matched) {
        int i = advance(p, b, cursor[j], start);
        int[] docs = p.docs;
        int[] fieldTf = p.fieldTf;
        int size = p.size;
        double w = weight[j];
        boolean any = false;
        while (i < size && docs[i] < end) {
            int doc = docs[i];
            double tf = 0;
            do {
                tf += fields.tf(fieldTf[i], doc);
                i++;
            } while (i < size && docs[i] == doc);
            if (tf > 0) {
                double c = scorer.score(w, tf);
                int o = doc - start;
                termScore[o] = c;
                partialSum[o] += c;
                matched[o >>> 6] |= 1L << o;
                any = true;
            }
        }
        cursor[j] = i;
        return any;
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

    /** Entries looked at directly before {@link #advance(Postings, InvertedIndex.TermBound, int, int)} skips blocks. */
    private static final int NEAR = 16;

    /**
     * The first entry at or after {@code from} whose doc is {@code >= target}, as a skip list finds it (Lucene's
     * postings skip the same way): a target within {@link #NEAR} entries is galloped to; a farther one is first
     * located among the block ends of {@code b} (about one int per {@link InvertedIndex#BLOCK_SIZE} entries, so the
     * search stays in cache), then galloped to inside its block. Postings of millions of entries are thus touched in
     * one block, not at every probe of a search over the whole array.
     */
    static int advance(Postings p, InvertedIndex.TermBound b, int from, int target) {
        int[] docs = p.docs;
        int size = p.size;
        if (from >= size || docs[from] >= target) {
            return from;
        }
        int near = from + NEAR;
        if (b.blocks() == 0 || (near < size && docs[near] >= target)) {
            return advance(p, from, target);
        }
        // the first block whose last doc is >= target (block ends are strictly increasing)
        int hi = Arrays.binarySearch(b.blockLast(), 0, b.blocks(), target);
        if (hi < 0) {
            hi = -hi - 1;
        }
        if (hi == b.blocks()) {
            return size; // every posting is before target
        }
        // every entry before block hi is before target, and block hi holds a doc >= target
        return advance(p, Math.max(from, hi == 0 ? 0 : b.blockEnd()[hi - 1]), target);
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
