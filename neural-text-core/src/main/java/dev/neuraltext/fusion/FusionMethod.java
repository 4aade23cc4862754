package dev.neuraltext.fusion;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * How the legs' ranked lists are fused into one. Both methods produce a fused score on the same documented scale,
 * in [0, 1], identical for every store, which the adaptive extension's gap and floor act on:
 *
 * <ul>
 *   <li>{@link Rrf}: {@code sum over legs of w_leg / (k + rank_leg)}, divided by {@code sum over the legs that ran of
 *       w_leg / (k + 1)}. 1.0 means ranked first by every leg that ran; a hit missing from a leg gets nothing from it.</li>
 *   <li>{@link Weighted}: a convex combination {@code sum of w_leg * norm_leg(score)} with the weights of the legs that
 *       ran rescaled to sum to 1, where {@code norm_leg} min-max normalises a leg's raw scores over its own result
 *       list to [0, 1] (all equal scores normalise to 1); a hit missing from a leg gets 0 from it.</li>
 * </ul>
 *
 * <p>Weights are per leg, default 1.0, and must be non-negative and finite.
 */
public sealed interface FusionMethod {

    /** The default: RRF with k = 60 and equal weights. */
    static FusionMethod defaultMethod() {
        return rrf(Rrf.DEFAULT_K);
    }

    /** RRF with constant {@code k} and equal weights. */
    static Rrf rrf(int k) {
        return new Rrf(k, Map.of());
    }

    /** Convex combination with the given per-leg weights. */
    static Weighted weighted(Map<Leg, Double> weights) {
        return new Weighted(weights);
    }

    /**
     * The classic dense-versus-lexical convex combination: {@code alpha} for the dense leg, {@code 1 - alpha} shared
     * equally by the BM25 and sparse legs.
     */
    static Weighted alpha(double alpha) {
        if (!(alpha >= 0 && alpha <= 1)) {
            throw new IllegalArgumentException("alpha must be in [0, 1], got " + alpha);
        }
        Map<Leg, Double> w = new EnumMap<>(Leg.class);
        w.put(Leg.DENSE, alpha);
        w.put(Leg.BM25, (1 - alpha) / 2);
        w.put(Leg.SPARSE, (1 - alpha) / 2);
        return new Weighted(w);
    }

    /** Per-leg weights; a leg not in {@code weights()} has weight 1.0. */
    Map<Leg, Double> weights();

    /** The weight of {@code leg}. */
    default double weight(Leg leg) {
        return weights().getOrDefault(leg, 1.0);
    }

    /**
     * Reciprocal Rank Fusion.
     *
     * @param k       the rank constant, default {@value #DEFAULT_K} (Qdrant's server default is 2; stores set it explicitly)
     * @param weights per-leg weights, default 1.0
     */
    record Rrf(int k, Map<Leg, Double> weights) implements FusionMethod {
        /** The RRF constant of the literature and of the embedded store. */
        public static final int DEFAULT_K = 60;

        public Rrf {
            if (k < 0) {
                throw new IllegalArgumentException("rrf k must be >= 0, got " + k);
            }
            weights = copyWeights(weights);
        }

        /** A copy with per-leg weights. */
        public Rrf withWeights(Map<Leg, Double> newWeights) {
            return new Rrf(k, newWeights);
        }
    }

    /** Convex combination of min-max normalised leg scores. */
    record Weighted(Map<Leg, Double> weights) implements FusionMethod {
        public Weighted {
            weights = copyWeights(weights);
        }
    }

    private static Map<Leg, Double> copyWeights(Map<Leg, Double> weights) {
        if (weights == null || weights.isEmpty()) {
            return Map.of();
        }
        Map<Leg, Double> copy = new EnumMap<>(Leg.class);
        weights.forEach((leg, w) -> {
            if (leg == null) {
                throw new NullPointerException("fusion weight key must not be null");
            }
            if (w == null || !Double.isFinite(w) || w < 0) {
                throw new IllegalArgumentException("fusion weight of " + leg.label()
                        + " must be a non-negative finite value, got " + w);
            }
            copy.put(leg, w);
        });
        return Collections.unmodifiableMap(copy);
    }
}
