package dev.neuraltext.fusion;

import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Weighted Reciprocal Rank Fusion on the normalised scale of {@link FusionMethod}.
 *
 * <p>A hit at 1-based rank {@code r} in leg {@code L} earns {@code w_L / (k + r)}; a leg that did not return the hit
 * contributes nothing. The fused score is the sum over legs divided by {@link #maxScore(int, Map, Set)}, the sum
 * {@code w_L / (k + 1)} over the legs that ran (the keys of the map given to {@link #fuse}, including legs that
 * returned an empty list). So 1.0 means ranked first by every leg that ran, and the score does not depend on how many
 * legs a store happened to run. When the weights of the legs that ran are all 0 every fused score is 0 and the order
 * is the tie-break alone.
 *
 * <p>Ranks are positions: a leg's list is taken as given (best first), so equal raw scores within a leg still get
 * consecutive ranks in list order; a repeated id within one leg keeps its first position. Ties in the fused score are
 * broken by the best (smallest) rank the hit has in any leg, then by id in {@link String#compareTo} order, so the
 * output is a pure function of the input. Contributions are summed in ascending order so that hits with the same
 * multiset of contributions tie exactly.
 *
 * <p>A remote store that fuses server-side reproduces these sums with its own arithmetic (the Qdrant module sends
 * {@code k + 1}, because Qdrant counts positions from 0) and divides by {@link #maxScore(int, Map, Set)}.
 *
 * <p>Immutable and thread-safe. Obtain one with {@link Fusion#of(FusionMethod)} or {@link #RrfFusion(FusionMethod.Rrf)}.
 */
public final class RrfFusion implements Fusion {

    private final FusionMethod.Rrf method;

    /** A fusion with the method's {@code k} and per-leg weights. */
    public RrfFusion(FusionMethod.Rrf method) {
        this.method = Objects.requireNonNull(method, "method");
    }

    /** The method this fusion applies. */
    public FusionMethod.Rrf method() {
        return method;
    }

    @Override
    public List<FusedResult> fuse(Map<Leg, List<LegResult>> legs, int limit) {
        Map<String, Map<Leg, LegScore>> byId = FusionSupport.collect(legs, limit);
        double max = maxScore(method.k(), method.weights(), legs.keySet());
        List<FusedResult> results = new ArrayList<>(byId.size());
        double[] terms = new double[Leg.values().length];
        for (Map.Entry<String, Map<Leg, LegScore>> e : byId.entrySet()) {
            int n = 0;
            for (LegScore s : e.getValue().values()) {
                terms[n++] = contribution(method.k(), method.weight(s.leg()), s.rank());
            }
            double fused = max == 0 ? 0 : FusionSupport.unit(FusionSupport.orderedSum(terms, n) / max);
            results.add(new FusedResult(e.getKey(), fused, e.getValue()));
        }
        return FusionSupport.sortAndCut(results, limit);
    }

    /** {@code weight / (k + rank)}: what a hit at 1-based {@code rank} earns from a leg of weight {@code weight}. */
    public static double contribution(int k, double weight, int rank) {
        if (k < 0) {
            throw new IllegalArgumentException("rrf k must be >= 0, got " + k);
        }
        Checks.nonNegativeFinite(weight, "weight");
        Checks.positive(rank, "rank");
        return weight / ((double) k + rank);
    }

    /**
     * The largest raw RRF sum attainable when {@code legsRun} ran: {@code sum over legsRun of w_leg / (k + 1)}, a leg
     * missing from {@code weights} having weight 1.0 (as in {@link FusionMethod#weight(Leg)}). Dividing a raw sum by
     * this puts it on the fused scale; 0 when no leg ran or all their weights are 0.
     */
    public static double maxScore(int k, Map<Leg, Double> weights, Set<Leg> legsRun) {
        Checks.notNull(weights, "weights");
        Checks.notNull(legsRun, "legsRun");
        double[] terms = new double[Leg.values().length];
        int n = 0;
        for (Leg leg : Leg.values()) {
            if (legsRun.contains(leg)) {
                Double w = weights.get(leg);
                terms[n++] = contribution(k, w == null ? 1.0 : w, 1);
            }
        }
        return FusionSupport.orderedSum(terms, n);
    }

    @Override
    public String toString() {
        return "RrfFusion[k=" + method.k() + ", weights=" + method.weights() + "]";
    }
}
