package dev.neuraltext.retrieve;

import dev.neuraltext.search.SearchHit;
import java.util.List;

/**
 * One query's ranking candidates with their features computed once, to be ordered under many weightings: the lab's
 * access to {@link RepositoryRanking}'s package-private fitting methods. It lives in the lab module (never shipped), in
 * the ranking's package, so that the product has no public API that serves fitting only. Immutable.
 */
public final class PreparedCandidates {

    private final RepositoryRanking.Candidates candidates;

    private PreparedCandidates(RepositoryRanking.Candidates candidates) {
        this.candidates = candidates;
    }

    /** The features of the first {@code ranking.depth()} of {@code hits} (best fused first) for {@code query}. */
    public static PreparedCandidates of(RepositoryRanking ranking, String query, List<SearchHit> hits) {
        return new PreparedCandidates(ranking.prepare(query, hits));
    }

    /** The query's kind. */
    public RepositoryRanking.QueryKind kind() {
        return candidates.kind();
    }

    /** The number of candidates. */
    public int size() {
        return candidates.size();
    }

    /** The candidate hits as given (best fused first). */
    public List<SearchHit> hits() {
        return candidates.hits();
    }

    /** The candidates ordered under {@code ranking}, each carrying its signals, as the product ranks them. */
    public List<SearchHit> rank(RepositoryRanking ranking) {
        return candidates.rank(ranking);
    }

    /** The order under {@code ranking} (indices into {@link #hits()}, best first), without building hits. */
    public int[] order(RepositoryRanking ranking) {
        return candidates.order(ranking);
    }

    /**
     * The value each of {@link RepositoryRanking#PARAMETERS} multiplies for candidate {@code i} (0 for the other
     * kinds' and for {@code diversity}).
     */
    public double[] parameterValues(int i) {
        return candidates.parameterValues(i);
    }

    /** Candidate {@code i}'s {@code base} feature (weight 1). */
    public double base(int i) {
        return candidates.base(i);
    }
}
