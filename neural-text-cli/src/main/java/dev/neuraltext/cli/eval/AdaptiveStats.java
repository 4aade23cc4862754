package dev.neuraltext.cli.eval;

import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalRun;
import dev.neuraltext.eval.QueryResult;
import java.util.Map;

/**
 * Does adaptive extension earn its extra results? Compares the precision (share graded 1 or more) of the extended tail
 * (ranks past k, on the queries it extended) with the precision a fixed cut would get at the same ranks: ranks
 * {@code k+1 .. k+t} of the same technique without extension, on every query, where {@code t} is the mean tail length.
 *
 * @param queries                how many queries
 * @param meanReturned           mean results returned per query
 * @param extendedQueries        queries that got more than k results
 * @param tailResults            results returned past k in total
 * @param tailPrecision          precision of those results
 * @param meanTail               mean tail length over the extended queries
 * @param fixedCutTailPrecision  precision at ranks k+1..k+round(meanTail) of the fixed-cut technique over all queries
 *                               (NaN when the fixed-cut technique did not run)
 * @param headPrecision          precision at ranks 1..k (for scale)
 */
record AdaptiveStats(int queries, double meanReturned, int extendedQueries, long tailResults, double tailPrecision,
        double meanTail, double fixedCutTailPrecision, double headPrecision) {

    static AdaptiveStats of(EvalDataset dataset, EvalRun adaptive, EvalRun fixedCut, int k) {
        int extended = 0;
        long tail = 0;
        long tailRelevant = 0;
        long head = 0;
        long headRelevant = 0;
        for (QueryResult r : adaptive.results()) {
            Map<String, Integer> grades = dataset.judgments(r.query());
            for (int i = 0; i < r.ranked().size(); i++) {
                boolean rel = grades.getOrDefault(r.ranked().get(i), 0) >= 1;
                if (i < k) {
                    head++;
                    headRelevant += rel ? 1 : 0;
                } else {
                    tail++;
                    tailRelevant += rel ? 1 : 0;
                }
            }
            if (r.returned() > k) {
                extended++;
            }
        }
        double meanTail = extended == 0 ? 0 : tail / (double) extended;
        double fixed = Double.NaN;
        if (fixedCut != null) {
            int t = Math.max(1, (int) Math.round(meanTail));
            long n = 0;
            long rel = 0;
            for (QueryResult r : fixedCut.results()) {
                Map<String, Integer> grades = dataset.judgments(r.query());
                for (int i = k; i < Math.min(k + t, r.ranked().size()); i++) {
                    n++;
                    rel += grades.getOrDefault(r.ranked().get(i), 0) >= 1 ? 1 : 0;
                }
            }
            fixed = n == 0 ? 0 : rel / (double) n;
        }
        return new AdaptiveStats(adaptive.results().size(), adaptive.meanReturned(), extended, tail,
                tail == 0 ? 0 : tailRelevant / (double) tail, meanTail, fixed,
                head == 0 ? 0 : headRelevant / (double) head);
    }
}
