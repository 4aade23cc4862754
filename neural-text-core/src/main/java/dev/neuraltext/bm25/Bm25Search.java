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
 * bounds (the largest {@code tf~} in each block of 128 entries); shorter ones a single bound. The doc ordinals are
 * walked in windows that end where a block of an essential term ends (but span at least {@link #MIN_WINDOW_PER_TERM}
 * ordinals per essential term, and more, up to {@link #MAX_MIN_WINDOW}, while windows average fewer than
 * {@link #MIN_WINDOW_PER_TERM} candidates per term, so that bounds are not recomputed for every few documents). In
 * each window every query term has an upper bound, its score at its largest {@code tf~} over the blocks the window
 * touches. Once the top k is full the terms are partitioned as Lucene's {@code MaxScoreBulkScorer} partitions them:
 * in order of bound per posting entry, each term whose bound, added to those of the terms taken before it, stays below
 * the k-th score is <em>non-essential</em> (so the long postings of common words go first), and the others are
 * essential: a document that has only non-essential terms cannot enter the top k, so candidates come
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
 * the index: the cost is in the postings read, through {@link Postings.Cursor}s.
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
        Postings.Cursor[] postings = new Postings.Cursor[queryTerms.size()];
        double[] cost = new double[postings.length];
        double[] weight = new double[postings.length];
        double[] globalBound = new double[postings.length];
        InvertedIndex.TermBound[] bounds = new InvertedIndex.TermBound[postings.length];
        for (Map.Entry<String, Double> qt : queryTerms.entrySet()) {
            double qw = qt.getValue();
            int term = index.term(qt.getKey());
            if (term < 0 || qw <= 0) {
                continue;
            }
            Postings p = index.postings(term);
            postings[m] = p.cursor();
            cost[m] = p.size();
            weight[m] = qw * Bm25FScorer.idf(index.live(), index.df(term));
            bounds[m] = index.bound(term, fields);
            globalBound[m] = scorer.score(weight[m], bounds[m].maxTfTilde()) * SLACK;
            m++;
        }
        if (m == 0) {
            return List.of();
        }
        int[] blockCursor = new int[m];
        double[] contribution = new double[m];
        int[] scoredDoc = new int[m];
        Arrays.fill(scoredDoc, -1);
        double[] bound = new double[m];
        double[] boundPerCost = new double[m];
        int[] order = new int[m];
        int[] partition = new int[m];
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
                    bound[j] = windowBound(j, windowStart, windowEnd, postings, bounds, blockCursor, globalBound,
                            weight, scorer);
                    boundPerCost[j] = bound[j] / cost[j];
                }
                double sum = 0;
                for (int j = 0; j < m; j++) {
                    sum += bound[j];
                }
                if (sum * SLACK < threshold) {
                    windowStart = windowEnd; // no document of this window can enter the top k
                    continue;
                }
                // partitioned as Lucene's MaxScoreBulkScorer does: in order of bound per posting entry, each term
                // whose bound still fits under the k-th score, with the non-essential ones before it, is made
                // non-essential (the others stay essential and are passed over), so that the long postings of common
                // words are looked up for candidates rather than read whole
                sortBy(boundPerCost, order, m);
                essential = 0;
                int essentialFromEnd = m;
                double nonEssentialSum = 0;
                for (int k = 0; k < m; k++) {
                    int j = order[k];
                    if ((nonEssentialSum + bound[j]) * SLACK < threshold) {
                        nonEssentialSum += bound[j];
                        partition[essential++] = j;
                    } else {
                        partition[--essentialFromEnd] = j;
                    }
                }
                for (int k = 0; k < m; k++) {
                    // the essential terms, kept in their sorted order after the non-essential ones
                    order[k] = k < essential ? partition[k] : partition[m - 1 - (k - essential)];
                    prefix[k] = (k == 0 ? 0 : prefix[k - 1]) + bound[order[k]];
                    essentialTerm[order[k]] = k >= essential;
                }
            }
            int nextWindow = windowEnd;
            boolean stop = false;
            int innerStart = windowStart;
            while (innerStart < windowEnd && !stop) {
                // an inner window starts at the first essential posting, as Lucene's starts at its essential queue's
                // top: stretches without candidates are not walked
                int first = windowEnd;
                for (int k = essential; k < m; k++) {
                    first = Math.min(first, postings[order[k]].advance(innerStart));
                }
                if (first >= windowEnd) {
                    break;
                }
                innerStart = first;
                int innerEnd = Math.min(windowEnd, innerStart + INNER_WINDOW);
                // essential terms, one at a time over the inner window: each one's contribution per document, and
                // their sum (in any order: it only decides pruning, with slack)
                boolean any = false;
                for (int k = essential; k < m; k++) {
                    int j = order[k];
                    any |= accumulate(postings[j], innerStart, innerEnd, fields, scorer, weight[j], termScore[j],
                            partialSum, matched);
                }
                if (!any) {
                    innerStart = innerEnd;
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
                            if (postings[j].advance(doc) == doc) {
                                partial += score(postings[j], j, doc, fields, scorer, weight, contribution, scoredDoc);
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
                            // the filter is asked only about documents that could enter the top k; a deleted
                            // document is told by a bit, and an id is looked up only for a filter
                            if (top.competitive(score, doc) && index.isLive(doc)
                                    && (accept == null || accept.test(index.id(doc)))) {
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
                innerStart = innerEnd;
            }
            windowStart = nextWindow;
        }
        return top.bestFirst(index);
    }

    /**
     * Term {@code j}'s bound on the window {@code [start, end)}: for blocked postings its score at the largest
     * {@code tf~} of the blocks the window touches, otherwise its global bound while it has a posting in the window.
     */
    private static double windowBound(int j, int start, int end, Postings.Cursor[] postings,
            InvertedIndex.TermBound[] bounds, int[] blockCursor, double[] globalBound, double[] weight,
            Bm25FScorer scorer) {
        InvertedIndex.TermBound b = bounds[j];
        if (b.blocks() == 0) {
            return postings[j].advance(start) < end ? globalBound[j] : 0;
        }
        int c = blockCursor[j] = seekBlock(b, blockCursor[j], start);
        int[] last = b.blockLast();
        float[] max = b.blockMax();
        int[] superLast = b.superLast();
        float[] superMax = b.superMax();
        int superMask = (1 << InvertedIndex.SUPER_SHIFT) - 1;
        float tf = 0;
        while (c < b.blocks()) {
            int s = c >>> InvertedIndex.SUPER_SHIFT;
            if ((c & superMask) == 0 && superLast[s] < end - 1) { // the whole superblock is in the window
                tf = Math.max(tf, superMax[s]);
                c += superMask + 1;
                continue;
            }
            tf = Math.max(tf, max[c]);
            if (last[c] >= end - 1) {
                break;
            }
            c++;
        }
        return tf == 0 ? 0 : scorer.score(weight[j], tf) * SLACK;
    }

    /** The first block at or after {@code from} whose last doc is at least {@code target}, skipping superblocks. */
    private static int seekBlock(InvertedIndex.TermBound b, int from, int target) {
        int[] last = b.blockLast();
        int[] superLast = b.superLast();
        int superMask = (1 << InvertedIndex.SUPER_SHIFT) - 1;
        int c = from;
        while (c < b.blocks() && last[c] < target) {
            if ((c & superMask) == 0 && superLast[c >>> InvertedIndex.SUPER_SHIFT] < target) {
                c += superMask + 1;
            } else {
                c++;
            }
        }
        return Math.min(c, b.blocks());
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
            int n = size;
            double[] bestScore = new double[n];
            int[] bestDoc = new int[n];
            while (size > 0) {
                double s = score[0];
                int d = doc[0];
                size--;
                if (size > 0) {
                    siftDown(0, score[size], doc[size]);
                }
                bestScore[size] = s;
                bestDoc[size] = d;
            }
            // ids are read in a loop of their own, whose iterations do not depend on each other, so that the processor
            // overlaps their cache misses
            LegResult[] out = new LegResult[n];
            for (int i = 0; i < n; i++) {
                out[i] = new LegResult(index.id(bestDoc[i]), bestScore[i]);
            }
            return List.of(out);
        }
    }

    /**
     * Scores a term on every document of {@code [start, end)} its postings have: its contribution into
     * {@code termScore[doc - start]}, added to {@code partialSum}, the document's bit set in {@code matched}; leaves
     * the cursor on the first entry at or after {@code end}. Returns whether any document got a positive contribution.
     */
    private static boolean accumulate(Postings.Cursor postings, int start, int end, FieldScoring fields,
            Bm25FScorer scorer, double weight, double[] termScore, double[] partialSum, long[] matched) {
        int doc = postings.advance(start);
        boolean any = false;
        while (doc < end) {
            int d = doc;
            double tf = 0;
            do {
                tf += fields.tf(postings.fieldTf(), d);
                doc = postings.next();
            } while (doc == d);
            if (tf > 0) {
                double c = scorer.score(weight, tf);
                int o = d - start;
                termScore[o] = c;
                partialSum[o] += c;
                matched[o >>> 6] |= 1L << o;
                any = true;
            }
        }
        return any;
    }

    /** Scores term {@code j} at {@code doc} (its cursor is on doc's first entry) and moves the cursor past doc. */
    private static double score(Postings.Cursor postings, int j, int doc, FieldScoring fields, Bm25FScorer scorer,
            double[] weight, double[] contribution, int[] scoredDoc) {
        double tf = 0;
        do {
            tf += fields.tf(postings.fieldTf(), doc);
        } while (postings.next() == doc);
        if (tf <= 0) {
            return 0;
        }
        contribution[j] = scorer.score(weight[j], tf);
        scoredDoc[j] = doc;
        return contribution[j];
    }

    /** Fills {@code order[0..m-1]} with the term indexes sorted by {@code key} ascending (insertion sort: m is small). */
    private static void sortBy(double[] key, int[] order, int m) {
        for (int k = 0; k < m; k++) {
            int j = k;
            while (j > 0 && key[order[j - 1]] > key[k]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = k;
        }
    }
}
