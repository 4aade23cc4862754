package dev.neuraltext.fusion;

import java.util.List;
import java.util.Map;

/**
 * Fuses the ranked lists of several legs into one. Implementations are immutable and thread-safe; every fused hit
 * keeps each leg's 1-based rank and raw score, and ties are broken by fused score descending, then best rank in any
 * leg ascending, then id ascending.
 */
public interface Fusion {

    /**
     * Fuses {@code legs} (each list best first; a leg that ran and returned nothing is present with an empty list)
     * and returns at most {@code limit} results, best first, ties broken deterministically.
     */
    List<FusedResult> fuse(Map<Leg, List<LegResult>> legs, int limit);

    /**
     * The implementation of {@code method}: {@link RrfFusion} for {@link FusionMethod.Rrf}, {@link WeightedFusion} for
     * {@link FusionMethod.Weighted}. Both put the fused score on the scale documented in {@link FusionMethod}.
     */
    static Fusion of(FusionMethod method) {
        if (method == null) {
            throw new NullPointerException("fusion method must not be null");
        }
        if (method instanceof FusionMethod.Rrf) {
            return new RrfFusion((FusionMethod.Rrf) method);
        }
        if (method instanceof FusionMethod.Weighted) {
            return new WeightedFusion((FusionMethod.Weighted) method);
        }
        throw new IllegalArgumentException("unsupported fusion method " + method);
    }
}
