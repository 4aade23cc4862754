package dev.neuraltext.retrieve;

import dev.neuraltext.internal.Checks;
import dev.neuraltext.search.SearchHit;
import java.util.List;

/**
 * Adaptive result extension: over-fetch candidates, always return the requested {@code limit}, and keep going past it
 * while the scores stay close together and above a relevance floor, so a query with twelve equally good answers gets
 * twelve even when it asked for ten.
 *
 * <h2>Algorithm</h2>
 * The store is asked for {@link #fetchSize(int) fetchSize(limit)} = {@code ceil(limit * overFetchFactor)} candidates.
 * {@link #apply(List, int)} then takes the candidates, best first, and
 * <ol>
 *   <li>returns the first {@code limit} of them unconditionally (all of them when there are fewer): the extension
 *       never returns fewer than the limit when more candidates exist;</li>
 *   <li>extends past the limit, one candidate at a time, while the next candidate's score is {@code >= floor} and its
 *       gap to the previous candidate ({@code previous.score() - next.score()}) is {@code < maxGap}, stopping at the
 *       first candidate that fails either test (the first real drop), and never past the fetched candidates.</li>
 * </ol>
 * {@link Extension#aboveThreshold()} counts every candidate whose score is {@code >= floor}, returned or not, so a
 * caller sees when asking for more would return more relevant hits; {@link Extension#extended()} says whether more
 * than {@code limit} hits were returned.
 *
 * <h2>Score scale</h2>
 * The thresholds act on {@link SearchHit#score()}, which is in [0, 1] for every store: the fused score on the scale of
 * {@link dev.neuraltext.search.FusionMethod} (normalised RRF, or the convex combination of min-max normalised leg
 * scores), or, after reranking, the reranker's score in [0, 1]. The same numbers therefore mean the same thing with
 * the embedded store and with Qdrant. They do not mean the same thing under every fusion, and it is worth being
 * honest about how:
 * <ul>
 *   <li><b>RRF</b>: the normalised score is rank-derived. With k = 60, neighbouring ranks of one leg differ by about
 *       {@code 1/61 - 1/62}, i.e. consecutive fused scores typically differ by well under 0.01, so the gap test almost
 *       never stops an RRF list: the <em>floor</em> does most of the work. On this scale 0.5 means, roughly, "near the
 *       top of half the legs' worth of weight" (two legs: first in one leg alone gives 0.5, rank 20 in both gives
 *       0.76; three legs: first in one leg alone gives 0.33).</li>
 *   <li><b>Weighted fusion</b> and <b>reranker scores</b> keep the shape of the underlying scores, so a real drop in
 *       relevance shows up as a gap, and the gap test is what stops the list.</li>
 * </ul>
 *
 * <h2>Defaults</h2>
 * {@code overFetchFactor} = {@value #DEFAULT_OVER_FETCH_FACTOR}, {@code maxGap} = {@value #DEFAULT_MAX_GAP},
 * {@code floor} = {@value #DEFAULT_FLOOR}. The floor default is provisional: 0.5 is the natural midpoint of all three
 * scales (and a sigmoid reranker's decision boundary); it is meant to be tuned by measurement.
 *
 * <p>Instances are immutable and thread-safe; the {@link Builder} is not.
 */
public final class AdaptiveExtension {

    /** Default over-fetch factor: twice the limit. */
    public static final double DEFAULT_OVER_FETCH_FACTOR = 2.0;
    /** Default maximum gap between consecutive scores while extending. */
    public static final double DEFAULT_MAX_GAP = 0.05;
    /** Default relevance floor (provisional, see the class documentation). */
    public static final double DEFAULT_FLOOR = 0.5;

    private static final AdaptiveExtension DEFAULTS = builder().build();

    private final double overFetchFactor;
    private final double maxGap;
    private final double floor;

    private AdaptiveExtension(Builder b) {
        this.overFetchFactor = b.overFetchFactor;
        this.maxGap = b.maxGap;
        this.floor = b.floor;
    }

    /** Over-fetch {@value #DEFAULT_OVER_FETCH_FACTOR}x, gap {@value #DEFAULT_MAX_GAP}, floor {@value #DEFAULT_FLOOR}. */
    public static AdaptiveExtension defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder initialised from this instance. */
    public Builder toBuilder() {
        return new Builder().overFetchFactor(overFetchFactor).maxGap(maxGap).floor(floor);
    }

    /** How many times the limit to fetch. */
    public double overFetchFactor() {
        return overFetchFactor;
    }

    /** Extension continues only while consecutive scores differ by less than this. */
    public double maxGap() {
        return maxGap;
    }

    /** The relevance floor: extension needs scores at or above it, and {@code aboveThreshold} counts them. */
    public double floor() {
        return floor;
    }

    /**
     * How many candidates to fetch for a request of {@code limit}: {@code ceil(limit * overFetchFactor)}, at least
     * {@code limit}, at most {@link Integer#MAX_VALUE}.
     *
     * @throws IllegalArgumentException if {@code limit <= 0}
     */
    public int fetchSize(int limit) {
        Checks.positive(limit, "limit");
        double wanted = Math.ceil(limit * overFetchFactor);
        return wanted >= Integer.MAX_VALUE ? Integer.MAX_VALUE : Math.max(limit, (int) wanted);
    }

    /**
     * Cuts or extends {@code ranked} (best first, scores in [0, 1]) for a request of {@code limit}; see the class
     * documentation for the rules.
     *
     * @throws IllegalArgumentException if {@code ranked} is null or {@code limit <= 0}
     */
    public Extension apply(List<SearchHit> ranked, int limit) {
        Checks.notNull(ranked, "ranked");
        Checks.positive(limit, "limit");
        int above = 0;
        for (SearchHit hit : ranked) {
            if (hit.score() >= floor) {
                above++;
            }
        }
        int end = Math.min(limit, ranked.size());
        while (end < ranked.size()) {
            double previous = ranked.get(end - 1).score();
            double next = ranked.get(end).score();
            if (!(next >= floor && previous - next < maxGap)) {
                break;
            }
            end++;
        }
        return new Extension(ranked.subList(0, end), above, end > limit);
    }

    @Override
    public String toString() {
        return "AdaptiveExtension[overFetchFactor=" + overFetchFactor + ", maxGap=" + maxGap + ", floor=" + floor
                + "]";
    }

    /**
     * The outcome of {@link #apply(List, int)}.
     *
     * @param hits           the hits to return, best first
     * @param aboveThreshold how many candidates scored at or above the floor (returned or not)
     * @param extended       whether more than the limit are returned
     */
    public record Extension(List<SearchHit> hits, int aboveThreshold, boolean extended) {
        public Extension {
            Checks.notNull(hits, "hits");
            hits = List.copyOf(hits);
            if (aboveThreshold < 0) {
                throw new IllegalArgumentException("aboveThreshold must be >= 0, got " + aboveThreshold);
            }
        }
    }

    /**
     * Builder of {@link AdaptiveExtension}; every setting starts at its default ({@code overFetchFactor}
     * {@value #DEFAULT_OVER_FETCH_FACTOR}, {@code maxGap} {@value #DEFAULT_MAX_GAP}, {@code floor}
     * {@value #DEFAULT_FLOOR}) and is validated when set. Not thread-safe.
     */
    public static final class Builder {
        private double overFetchFactor = DEFAULT_OVER_FETCH_FACTOR;
        private double maxGap = DEFAULT_MAX_GAP;
        private double floor = DEFAULT_FLOOR;

        private Builder() {
        }

        /** How many times the limit to fetch; finite and {@code >= 1} (1 fetches no spare candidates to extend into). */
        public Builder overFetchFactor(double overFetchFactor) {
            if (!(Double.isFinite(overFetchFactor) && overFetchFactor >= 1)) {
                throw new IllegalArgumentException("overFetchFactor must be a finite value >= 1, got "
                        + overFetchFactor);
            }
            this.overFetchFactor = overFetchFactor;
            return this;
        }

        /**
         * The largest drop between consecutive scores that still counts as "close" is just below this; finite and
         * {@code >= 0} (0 never extends a list sorted best first; values above 1 leave only the floor in charge).
         */
        public Builder maxGap(double maxGap) {
            if (!(Double.isFinite(maxGap) && maxGap >= 0)) {
                throw new IllegalArgumentException("maxGap must be a non-negative finite value, got " + maxGap);
            }
            this.maxGap = maxGap;
            return this;
        }

        /** The relevance floor, in [0, 1] like the scores it is compared with. */
        public Builder floor(double floor) {
            if (!(floor >= 0 && floor <= 1)) {
                throw new IllegalArgumentException("floor must be in [0, 1], got " + floor);
            }
            this.floor = floor;
            return this;
        }

        /** The configured extension. */
        public AdaptiveExtension build() {
            return new AdaptiveExtension(this);
        }
    }
}
