package dev.neuraltext.fusion;

import java.util.Objects;

/**
 * How one leg ranked a hit.
 *
 * @param leg   the leg
 * @param rank  1-based rank within the leg's own result list
 * @param score the leg's raw score (BM25 sum, cosine, sparse dot product)
 */
public record LegScore(Leg leg, int rank, double score) {
    public LegScore {
        Objects.requireNonNull(leg, "leg");
        if (rank < 1) {
            throw new IllegalArgumentException("rank must be >= 1, got " + rank);
        }
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException("score must not be NaN (leg " + leg + ")");
        }
    }
}
