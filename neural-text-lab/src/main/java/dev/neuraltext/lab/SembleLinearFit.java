package dev.neuraltext.lab;

import dev.neuraltext.eval.SpanNdcg;
import dev.neuraltext.retrieve.PreparedCandidates;
import dev.neuraltext.retrieve.RepositoryRanking;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fits {@link RepositoryRanking}'s linear weights as a pairwise logistic model (RankNet's loss on a linear score) with
 * an L2 penalty, then its {@code diversity} weight on a grid: a smooth objective that uses every feature at once,
 * where coordinate ascent on NDCG@10 moves one weight at a time and fits the training repositories' quirks.
 *
 * <p>Each question contributes the pairs (a candidate that hits a target, one that does not); every repository weighs
 * the same, and within it every question the same. The score is {@code b * base + w . features}; after fitting, the
 * weights are divided by {@code b} (the stage's {@code base} weight is 1) and clipped to [-{@value #CLIP},
 * {@value #CLIP}]. Optimised by full-batch Adam. Deterministic. Not thread-safe.
 */
final class SembleLinearFit {

    static final double CLIP = 5;
    static final double[] DIVERSITY_GRID = {0, 0.25, 0.5, 1, 2, 3};
    /** The default L2 penalty (per weight, on the per-repository mean loss). */
    static final double DEFAULT_LAMBDA = 0.001;
    private static final int STEPS = 400;
    private static final double RATE = 0.05;

    private SembleLinearFit() {
    }

    /** One training pair: the feature difference (base first, then {@link RepositoryRanking#PARAMETERS}) and its weight. */
    private record Pair(double[] diff, double weight) {
    }

    /** The weights fitted on {@code repos} with L2 penalty {@code lambda}. */
    static RepositoryRanking fit(List<SembleRankFit.PreparedRepo> repos, double lambda) {
        int dims = RepositoryRanking.PARAMETERS.size() + 1;
        int diversity = RepositoryRanking.PARAMETERS.indexOf("diversity") + 1;
        List<Pair> pairs = new ArrayList<>();
        for (SembleRankFit.PreparedRepo r : repos) {
            for (SembleRankFit.Prepared p : r.questions()) {
                PreparedCandidates c = p.candidates();
                List<double[]> pos = new ArrayList<>();
                List<double[]> neg = new ArrayList<>();
                for (int i = 0; i < c.size(); i++) {
                    double[] x = new double[dims];
                    x[0] = c.base(i);
                    System.arraycopy(c.parameterValues(i), 0, x, 1, dims - 1);
                    boolean hit = SpanNdcg.chunkLevel(List.of(p.spans().get(i)), p.question().targets(), 1) > 0;
                    (hit ? pos : neg).add(x);
                }
                if (pos.isEmpty() || neg.isEmpty()) {
                    continue;
                }
                double w = 1.0 / (r.questions().size() * repos.size() * (double) (pos.size() * neg.size()));
                for (double[] a : pos) {
                    for (double[] b : neg) {
                        double[] d = new double[dims];
                        for (int k = 0; k < dims; k++) {
                            d[k] = a[k] - b[k];
                        }
                        pairs.add(new Pair(d, w));
                    }
                }
            }
        }
        double[] theta = new double[dims];
        theta[0] = 1;
        double[] m = new double[dims];
        double[] v = new double[dims];
        for (int step = 1; step <= STEPS; step++) {
            double[] grad = new double[dims];
            for (Pair pair : pairs) {
                double s = 0;
                for (int k = 0; k < dims; k++) {
                    s += theta[k] * pair.diff()[k];
                }
                double g = -pair.weight() / (1 + Math.exp(s)); // d/ds log(1 + e^-s)
                for (int k = 0; k < dims; k++) {
                    grad[k] += g * pair.diff()[k];
                }
            }
            for (int k = 0; k < dims; k++) {
                if (k != diversity) {
                    grad[k] += 2 * lambda * theta[k];
                    m[k] = 0.9 * m[k] + 0.1 * grad[k];
                    v[k] = 0.999 * v[k] + 0.001 * grad[k] * grad[k];
                    double mh = m[k] / (1 - Math.pow(0.9, step));
                    double vh = v[k] / (1 - Math.pow(0.999, step));
                    theta[k] -= RATE * mh / (Math.sqrt(vh) + 1e-8);
                }
            }
        }
        double b = Math.max(theta[0], 1e-3);
        Map<String, Double> weights = new LinkedHashMap<>();
        for (int k = 1; k < dims; k++) {
            if (k != diversity) {
                double w = Math.max(-CLIP, Math.min(CLIP, theta[k] / b));
                weights.put(RepositoryRanking.PARAMETERS.get(k - 1), Math.round(w * 1000) / 1000.0);
            }
        }
        RepositoryRanking best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (double d : DIVERSITY_GRID) {
            weights.put("diversity", d);
            RepositoryRanking candidate = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, weights);
            double s = SembleRankFit.score(repos, candidate);
            if (s > bestScore) {
                best = candidate;
                bestScore = s;
            }
        }
        return best;
    }
}
