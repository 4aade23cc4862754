package dev.neuraltext.retrieve;

import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.search.SearchHit;
import java.util.List;

/**
 * The range of the BM25 and dense scores over a list of candidates, which the rankings scale each candidate's scores
 * by: BM25 relative to the best, dense between the lowest and the highest. Immutable.
 *
 * @param bm25Top   the highest BM25 score, 0 when no candidate has one
 * @param denseTop  the highest dense similarity, negative infinity when no candidate has one
 * @param denseLow  the lowest dense similarity, positive infinity when no candidate has one
 */
record LegScoreRange(double bm25Top, double denseTop, double denseLow) {

    static LegScoreRange of(List<SearchHit> hits) {
        double bm25Top = 0;
        double denseTop = Double.NEGATIVE_INFINITY;
        double denseLow = Double.POSITIVE_INFINITY;
        for (SearchHit h : hits) {
            LegScore b = h.legs().get(Leg.BM25);
            if (b != null) {
                bm25Top = Math.max(bm25Top, b.score());
            }
            LegScore d = h.legs().get(Leg.DENSE);
            if (d != null) {
                denseTop = Math.max(denseTop, d.score());
                denseLow = Math.min(denseLow, d.score());
            }
        }
        return new LegScoreRange(bm25Top, denseTop, denseLow);
    }
}
