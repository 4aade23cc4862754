package dev.neuraltext.qdrant;

import dev.neuraltext.fusion.RrfFusion;

/**
 * The arithmetic that makes Qdrant's server-side RRF agree with {@link RrfFusion}. Qdrant scores the 0-based position
 * {@code p} in a prefetch as {@code 1 / (p + k')} (unit weights), that is {@code 1 / (k' - 1 + r)} for 1-based rank
 * {@code r}, so sending {@code k' = k + 1} gives exactly {@link RrfFusion}'s raw sums (up to Qdrant's 32-bit floats),
 * which are then put on the fused scale by dividing by {@link RrfFusion#maxScore}. Qdrant's weighted RRF (server 1.17)
 * scores {@code 1 / ((p + 1) / w + k' - 1)}, a different curve from ours ({@code w / (k + r)}), so weighted sums agree
 * only when the fusion runs client-side.
 */
final class QdrantRrf {

    private QdrantRrf() {
    }

    /**
     * The {@code k} to give Qdrant's server-side RRF so that its unit-weight sums equal {@link RrfFusion}'s for
     * {@code k}: {@code k + 1}, because Qdrant counts positions from 0.
     */
    static int serverK(int k) {
        if (k < 0 || k == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("rrf k must be in [0, " + (Integer.MAX_VALUE - 1) + "], got " + k);
        }
        return k + 1;
    }

    /**
     * What Qdrant's RRF gives 1-based {@code rank} in a leg of weight {@code w} when sent {@link #serverK(int)}:
     * {@code 1 / (rank / w + k)}, which is {@code 1 / (k + rank)} for unit weights (our RRF's sum up to the weight).
     */
    static double contribution(int k, double w, int rank) {
        return w <= 0 ? 0 : 1 / (rank / w + k);
    }

    /** A raw sum put on the fused scale: {@code raw / max}, clamped to [0, 1]; 0 when the maximum is 0. */
    static double normalise(double raw, double max) {
        if (Double.isNaN(raw)) {
            throw new IllegalArgumentException("raw RRF sum must not be NaN");
        }
        return max == 0 ? 0 : Math.max(0, Math.min(1, raw / max));
    }
}
