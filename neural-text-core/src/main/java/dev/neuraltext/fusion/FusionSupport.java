package dev.neuraltext.fusion;

import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Validation, candidate collection and the deterministic ordering shared by the fusions. */
final class FusionSupport {

    /** Fused score descending, then best rank in any leg ascending, then id ascending. */
    static final Comparator<FusedResult> ORDER = (a, b) -> {
        int c = Double.compare(b.fusedScore(), a.fusedScore());
        if (c != 0) {
            return c;
        }
        c = Integer.compare(bestRank(a), bestRank(b));
        return c != 0 ? c : a.id().compareTo(b.id());
    };

    private FusionSupport() {
    }

    /**
     * Validates the input and returns, per distinct id in first-seen order, its rank and raw score in each leg that
     * returned it. The rank is the 1-based position in the leg's list; a repeated id within one leg keeps its first
     * (best) position and later repeats are ignored.
     */
    static Map<String, Map<Leg, LegScore>> collect(Map<Leg, List<LegResult>> legs, int limit) {
        Checks.notNull(legs, "legs");
        Checks.positive(limit, "limit");
        for (Leg leg : legs.keySet()) {
            if (leg == null) {
                throw new IllegalArgumentException("legs must not contain a null key");
            }
        }
        Map<String, Map<Leg, LegScore>> byId = new LinkedHashMap<>();
        for (Leg leg : Leg.values()) { // enum order, so the result does not depend on the map's iteration order
            if (!legs.containsKey(leg)) {
                continue;
            }
            List<LegResult> list = legs.get(leg);
            if (list == null) {
                throw new NullPointerException("result list of leg " + leg.label() + " must not be null");
            }
            for (int i = 0; i < list.size(); i++) {
                LegResult r = list.get(i);
                if (r == null) {
                    throw new NullPointerException(leg.label() + " result [" + i + "] must not be null");
                }
                Map<Leg, LegScore> perLeg = byId.computeIfAbsent(r.id(), id -> new EnumMap<>(Leg.class));
                perLeg.putIfAbsent(leg, new LegScore(leg, i + 1, r.score()));
            }
        }
        return byId;
    }

    /**
     * Sums {@code terms} in ascending order, so that the same multiset of contributions always gives the same
     * double regardless of which leg contributed which term (ties stay exact ties).
     */
    static double orderedSum(double[] terms, int n) {
        Arrays.sort(terms, 0, n);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += terms[i];
        }
        return sum;
    }

    /** Clamps to [0, 1] (rounding can push a sum of normalised parts a hair past 1). */
    static double unit(double x) {
        return x <= 0 ? 0 : Math.min(1.0, x);
    }

    /** Sorts by {@link #ORDER} and keeps the first {@code limit}. */
    static List<FusedResult> sortAndCut(List<FusedResult> results, int limit) {
        List<FusedResult> sorted = new ArrayList<>(results);
        sorted.sort(ORDER);
        return List.copyOf(sorted.size() > limit ? sorted.subList(0, limit) : sorted);
    }

    static int bestRank(FusedResult r) {
        int best = Integer.MAX_VALUE;
        for (LegScore s : r.legs().values()) {
            best = Math.min(best, s.rank());
        }
        return best;
    }
}
