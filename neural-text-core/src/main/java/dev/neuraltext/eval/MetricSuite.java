package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which metrics an evaluation computes, and under which names. {@link #defaults()}: {@code mrr@10}, {@code ndcg@10},
 * {@code success@1}, {@code success@5}, {@code success@10}, {@code recall@10}, {@code recall@100}, and the rubric on
 * the top 8: {@code relevant@8}, {@code highly_relevant@8}, {@code noise@8}, {@code unjudged@8} (see {@link Metrics}).
 *
 * @param k         the cut of MRR and nDCG, default 10
 * @param successKs the cuts of success@k, default 1, 5, 10
 * @param recallKs  the cuts of recall@k, default 10, 100
 * @param rubricK   the cut of the rubric, default 8
 */
public record MetricSuite(int k, List<Integer> successKs, List<Integer> recallKs, int rubricK) {

    public MetricSuite {
        Checks.positive(k, "k");
        Checks.positive(rubricK, "rubricK");
        successKs = List.copyOf(successKs);
        recallKs = List.copyOf(recallKs);
        successKs.forEach(x -> Checks.positive(x, "successKs element"));
        recallKs.forEach(x -> Checks.positive(x, "recallKs element"));
    }

    /** The default suite (k = 10). */
    public static MetricSuite defaults() {
        return new MetricSuite(10, List.of(1, 5, 10), List.of(10, 100), 8);
    }

    /** The default suite with MRR and nDCG at {@code k}, recall at {@code k} and 100. */
    public static MetricSuite withK(int k) {
        return new MetricSuite(k, List.of(1, 5, 10), k == 100 ? List.of(100) : List.of(k, 100), 8);
    }

    /** The name of MRR@k, e.g. {@code mrr@10}. */
    public String mrr() {
        return "mrr@" + k;
    }

    /** The name of nDCG@k, e.g. {@code ndcg@10}. */
    public String ndcg() {
        return "ndcg@" + k;
    }

    /** The metric names, in report order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(mrr());
        names.add(ndcg());
        successKs.forEach(x -> names.add("success@" + x));
        recallKs.forEach(x -> names.add("recall@" + x));
        names.add("relevant@" + rubricK);
        names.add("highly_relevant@" + rubricK);
        names.add("noise@" + rubricK);
        names.add("unjudged@" + rubricK);
        return List.copyOf(names);
    }

    /** Every metric of this suite for one ranking, in {@link #names()} order. */
    public Map<String, Double> score(List<String> ranked, Map<String, Integer> grades) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(mrr(), Metrics.reciprocalRank(ranked, grades, k));
        m.put(ndcg(), Metrics.ndcg(ranked, grades, k));
        for (int x : successKs) {
            m.put("success@" + x, Metrics.success(ranked, grades, x));
        }
        for (int x : recallKs) {
            m.put("recall@" + x, Metrics.recall(ranked, grades, x));
        }
        m.put("relevant@" + rubricK, Metrics.relevantPrecision(ranked, grades, rubricK));
        m.put("highly_relevant@" + rubricK, Metrics.highlyRelevantPrecision(ranked, grades, rubricK));
        m.put("noise@" + rubricK, Metrics.noise(ranked, grades, rubricK));
        m.put("unjudged@" + rubricK, Metrics.unjudged(ranked, grades, rubricK));
        return m;
    }

    /** The deepest cut any metric looks at: how many results a retrieval function should return. */
    public int depth() {
        int d = Math.max(k, rubricK);
        for (int x : successKs) {
            d = Math.max(d, x);
        }
        for (int x : recallKs) {
            d = Math.max(d, x);
        }
        return d;
    }
}
