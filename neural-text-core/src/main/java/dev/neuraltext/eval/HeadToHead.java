package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A paired comparison of two runs on the same queries: per-query wins, losses and draws on one metric (nDCG@k by
 * default), the mean difference with a bootstrap 95% confidence interval, and the two-sided p-value of a paired
 * randomisation (sign-flip) test of "no difference".
 *
 * <p>The randomisation test is exact (all {@code 2^n} sign assignments) when at most {@value #EXACT_LIMIT} queries
 * differ, otherwise Monte Carlo with {@code resamples} draws and the {@code (hits + 1) / (resamples + 1)} estimate.
 * Both use a fixed seed, so the same runs always give the same answer. Defaults: 10,000 resamples, seed 42; draws are
 * differences within 1e-9. Immutable and thread-safe.
 */
public final class HeadToHead {

    /** Up to this many non-zero differences the randomisation test enumerates every sign assignment. */
    public static final int EXACT_LIMIT = 20;

    private static final double EPS = 1e-9;

    private final String metric;
    private final int resamples;
    private final long seed;

    private HeadToHead(String metric, int resamples, long seed) {
        this.metric = metric;
        this.resamples = resamples;
        this.seed = seed;
    }

    /** On {@code metric} (e.g. {@code ndcg@10}), 10,000 resamples, seed 42. */
    public static HeadToHead on(String metric) {
        return new HeadToHead(Checks.notBlank(metric, "metric"), 10_000, 42);
    }

    /** A copy with another number of resamples (at least 100). */
    public HeadToHead resamples(int n) {
        if (n < 100) {
            throw new IllegalArgumentException("resamples must be >= 100, got " + n);
        }
        return new HeadToHead(metric, n, seed);
    }

    /** A copy with another seed. */
    public HeadToHead seed(long s) {
        return new HeadToHead(metric, resamples, s);
    }

    /**
     * Compares {@code a} with {@code b} over their common queries; a "win" is a query where {@code a} scores higher.
     *
     * @throws IllegalArgumentException when the runs share no query
     */
    public Result compare(EvalRun a, EvalRun b) {
        Checks.notNull(a, "a");
        Checks.notNull(b, "b");
        List<QueryResult> ra = a.results();
        double[] deltas = new double[ra.size()];
        double sumA = 0;
        double sumB = 0;
        int n = 0;
        for (QueryResult x : ra) {
            QueryResult y = b.result(x.query().id());
            if (y == null) {
                continue;
            }
            double va = x.metric(metric);
            double vb = y.metric(metric);
            sumA += va;
            sumB += vb;
            deltas[n++] = va - vb;
        }
        if (n == 0) {
            throw new IllegalArgumentException("runs '" + a.technique() + "' and '" + b.technique()
                    + "' share no query");
        }
        return compare(a.technique(), b.technique(), Arrays.copyOf(deltas, n), sumA / n, sumB / n);
    }

    /** Compares paired per-query differences {@code a - b} directly (for tests and custom harnesses). */
    public Result compare(double[] deltas) {
        return compare("a", "b", deltas.clone(), Double.NaN, Double.NaN);
    }

    private Result compare(String nameA, String nameB, double[] deltas, double meanA, double meanB) {
        int wins = 0;
        int losses = 0;
        int draws = 0;
        double observed = 0;
        for (double d : deltas) {
            if (d > EPS) {
                wins++;
            } else if (d < -EPS) {
                losses++;
            } else {
                draws++;
            }
            observed += d;
        }
        int n = deltas.length;
        double[] nonZero = Arrays.stream(deltas).filter(d -> Math.abs(d) > EPS).toArray();
        double p;
        boolean exact = nonZero.length <= EXACT_LIMIT;
        double threshold = Math.abs(observed) - 1e-9;
        if (nonZero.length == 0) {
            p = 1;
        } else if (exact) {
            long hits = 0;
            long total = 1L << nonZero.length;
            for (long mask = 0; mask < total; mask++) {
                double s = 0;
                for (int i = 0; i < nonZero.length; i++) {
                    s += (mask & (1L << i)) != 0 ? -nonZero[i] : nonZero[i];
                }
                if (Math.abs(s) >= threshold) {
                    hits++;
                }
            }
            p = hits / (double) total;
        } else {
            SplittableRandom random = new SplittableRandom(seed);
            long hits = 0;
            for (int r = 0; r < resamples; r++) {
                double s = 0;
                for (double d : nonZero) {
                    s += random.nextBoolean() ? d : -d;
                }
                if (Math.abs(s) >= threshold) {
                    hits++;
                }
            }
            p = (hits + 1) / (double) (resamples + 1);
        }
        // bootstrap percentile interval of the mean difference
        SplittableRandom random = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        double[] means = new double[resamples];
        for (int r = 0; r < resamples; r++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += deltas[random.nextInt(n)];
            }
            means[r] = s / n;
        }
        Arrays.sort(means);
        double low = means[(int) Math.floor(0.025 * (resamples - 1))];
        double high = means[(int) Math.ceil(0.975 * (resamples - 1))];
        return new Result(nameA, nameB, metric, n, wins, losses, draws, meanA, meanB, observed / n, low, high, p,
                exact);
    }

    /**
     * The outcome of a comparison of {@code a} against {@code b}.
     *
     * @param a         the first run's technique
     * @param b         the second run's technique
     * @param metric    the metric compared
     * @param queries   the number of paired queries
     * @param wins      queries where {@code a} scored higher
     * @param losses    queries where {@code b} scored higher
     * @param draws     queries scored equal (within 1e-9)
     * @param meanA     the mean of {@code a} over the paired queries (NaN when compared from raw differences)
     * @param meanB     the mean of {@code b} over the paired queries (NaN when compared from raw differences)
     * @param meanDelta the mean of {@code a - b}
     * @param ciLow     the 2.5th percentile of the bootstrapped mean difference
     * @param ciHigh    the 97.5th percentile of the bootstrapped mean difference
     * @param pValue    two-sided p-value of the paired randomisation test
     * @param exact     whether the p-value enumerated every sign assignment
     */
    public record Result(String a, String b, String metric, int queries, int wins, int losses, int draws,
            double meanA, double meanB, double meanDelta, double ciLow, double ciHigh, double pValue, boolean exact) {

        /** Whether the difference is significant at level {@code alpha} (e.g. 0.05). */
        public boolean significant(double alpha) {
            return pValue < alpha;
        }

        /**
         * A one-line summary, e.g.
         * {@code "hybrid vs bm25 on ndcg@10: +0.041 [+0.020, +0.060], 120 W / 80 L / 700 D, p = 0.0010"}.
         */
        public String summary() {
            return String.format(Locale.ROOT, "%s vs %s on %s: %+.3f [%+.3f, %+.3f], %d W / %d L / %d D, p = %.4f", a, b,
                    metric, meanDelta, ciLow, ciHigh, wins, losses, draws, pValue);
        }
    }
}
