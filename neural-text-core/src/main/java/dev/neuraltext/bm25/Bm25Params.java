package dev.neuraltext.bm25;

/**
 * Okapi BM25 parameters.
 *
 * @param k1 term-frequency saturation, default 1.2; a non-negative finite value
 * @param b  length normalisation, default 0.75; in [0, 1]
 */
public record Bm25Params(double k1, double b) {
    public Bm25Params {
        if (!Double.isFinite(k1) || k1 < 0) {
            throw new IllegalArgumentException("illegal k1 value: " + k1 + ", must be a non-negative finite value");
        }
        if (Double.isNaN(b) || b < 0 || b > 1) {
            throw new IllegalArgumentException("illegal b value: " + b + ", must be between 0 and 1");
        }
    }

    /** k1 = 1.2, b = 0.75. */
    public static Bm25Params defaults() {
        return new Bm25Params(1.2, 0.75);
    }
}
