package dev.neuraltext.store;

import java.util.Locale;

/**
 * How much of an index the dense leg covers: chunks with a dense vector out of all chunks. A chunk without one
 * (indexed by a run without the model) is found by the other legs only, until {@link
 * dev.neuraltext.retrieve.DenseBackfill} embeds it.
 *
 * @param chunks    all chunks in the store, {@code >= 0}
 * @param withDense chunks that have a dense vector, in {@code [0, chunks]}
 */
public record DenseCoverage(long chunks, long withDense) {

    public DenseCoverage {
        if (chunks < 0 || withDense < 0 || withDense > chunks) {
            throw new IllegalArgumentException("dense coverage needs 0 <= withDense <= chunks, got withDense "
                    + withDense + " of " + chunks + " chunks");
        }
    }

    /** Chunks without a dense vector. */
    public long lacking() {
        return chunks - withDense;
    }

    /** Whether some chunks have a dense vector and some do not: the dense leg sees only part of the index. */
    public boolean partial() {
        return withDense > 0 && withDense < chunks;
    }

    /** The covered fraction in [0, 1]; 1 for an empty store. */
    public double fraction() {
        return chunks == 0 ? 1.0 : (double) withDense / chunks;
    }

    /** For messages: {@code "700 of 800 chunks (88%)"}. */
    public String describe() {
        return String.format(Locale.ROOT, "%d of %d chunks (%.0f%%)", withDense, chunks, 100 * fraction());
    }
}
