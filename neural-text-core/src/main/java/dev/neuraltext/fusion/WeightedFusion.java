package dev.neuraltext.fusion;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Convex combination of min-max normalised leg scores, on the scale of {@link FusionMethod}.
 *
 * <p>Each leg's raw scores are min-max normalised over that leg's own result list:
 * {@code norm(s) = (s - min) / (max - min)}, and 1 for every hit when all its scores are equal (a single result
 * included). Negative raw scores (cosines) are fine. The weights of the legs that ran (the keys of the map given to
 * {@link #fuse}, including legs that returned nothing) are rescaled to sum to 1, and the fused score is
 * {@code sum of w'_leg * norm_leg(score)}, a leg that missed the hit contributing 0. So the fused score is in [0, 1]
 * and 1.0 means top of every leg that ran. When those weights are all 0 every fused score is 0 and the order is the
 * tie-break alone. Raw scores must be finite.
 *
 * <p>Ranks recorded in {@link FusedResult#legs()} are 1-based positions in each leg's list as given; a repeated id
 * within one leg keeps its first position. Ties in the fused score are broken by the best (smallest) rank in any leg,
 * then by id in {@link String#compareTo} order.
 *
 * <p>Immutable and thread-safe. Obtain one with {@link Fusion#of(FusionMethod)} or
 * {@link #WeightedFusion(FusionMethod.Weighted)}.
 */
final class WeightedFusion implements Fusion {

    private final FusionMethod.Weighted method;

    /** A fusion with the method's per-leg weights. */
    public WeightedFusion(FusionMethod.Weighted method) {
        this.method = Objects.requireNonNull(method, "method");
    }

    /** The method this fusion applies. */
    public FusionMethod.Weighted method() {
        return method;
    }

    @Override
    public List<FusedResult> fuse(Map<Leg, List<LegResult>> legs, int limit) {
        Map<String, Map<Leg, LegScore>> byId = FusionSupport.collect(legs, limit);
        Map<Leg, double[]> minMax = new EnumMap<>(Leg.class);
        double weightSum = 0;
        for (Leg leg : Leg.values()) {
            if (legs.containsKey(leg)) {
                weightSum += method.weight(leg);
                minMax.put(leg, minMax(leg, legs.get(leg)));
            }
        }
        List<FusedResult> results = new ArrayList<>(byId.size());
        double[] terms = new double[Leg.values().length];
        for (Map.Entry<String, Map<Leg, LegScore>> e : byId.entrySet()) {
            double fused = 0;
            if (weightSum > 0) {
                int n = 0;
                for (LegScore s : e.getValue().values()) {
                    double[] mm = minMax.get(s.leg());
                    terms[n++] = method.weight(s.leg()) / weightSum * normalise(s.score(), mm[0], mm[1]);
                }
                fused = FusionSupport.unit(FusionSupport.orderedSum(terms, n));
            }
            results.add(new FusedResult(e.getKey(), fused, e.getValue()));
        }
        return FusionSupport.sortAndCut(results, limit);
    }

    private static double[] minMax(Leg leg, List<LegResult> list) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (LegResult r : list) {
            if (!Double.isFinite(r.score())) {
                throw new IllegalArgumentException("weighted fusion needs finite scores, got " + r.score()
                        + " for '" + r.id() + "' in leg " + leg.label());
            }
            min = Math.min(min, r.score());
            max = Math.max(max, r.score());
        }
        return new double[] {min, max};
    }

    /** Min-max normalisation; halves avoid overflow when {@code max - min} exceeds the double range. */
    static double normalise(double score, double min, double max) {
        if (max == min) {
            return 1.0;
        }
        return FusionSupport.unit((score / 2 - min / 2) / (max / 2 - min / 2));
    }

    @Override
    public String toString() {
        return "WeightedFusion[weights=" + method.weights() + "]";
    }
}
