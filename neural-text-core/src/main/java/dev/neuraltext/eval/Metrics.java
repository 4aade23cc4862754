package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ranking metrics for one query. Each takes the ranked document ids (best first) and the query's judgments (document
 * id to grade; a grade of 1 or more is relevant, {@value Qrels#HIGHLY_RELEVANT} or more highly relevant, an id absent
 * from the map is unjudged) and looks at the first {@code k} distinct ids: a repeated id counts once, where it first
 * appears. Map aliases to canonical ids before calling (the {@link EvalRunner} does).
 *
 * <p>Stateless and thread-safe.
 */
public final class Metrics {

    private Metrics() {
    }

    /** MRR@k term: 1 / rank of the first relevant document within the top k, 0 when there is none. */
    public static double reciprocalRank(List<String> ranked, Map<String, Integer> grades, int k) {
        List<String> top = top(ranked, k);
        for (int i = 0; i < top.size(); i++) {
            if (grade(grades, top.get(i)) >= 1) {
                return 1.0 / (i + 1);
            }
        }
        return 0;
    }

    /**
     * nDCG@k with linear gain and log2 discount: {@code DCG = sum over ranks i = 1..k of grade_i / log2(i + 1)}
     * (negative grades count as 0), divided by the DCG of the ideal ranking of the judged documents; 0 when no
     * document is relevant.
     */
    public static double ndcg(List<String> ranked, Map<String, Integer> grades, int k) {
        List<String> top = top(ranked, k);
        double dcg = 0;
        for (int i = 0; i < top.size(); i++) {
            dcg += Math.max(0, grade(grades, top.get(i))) / log2(i + 2);
        }
        List<Integer> ideal = new ArrayList<>();
        for (int g : grades.values()) {
            if (g > 0) {
                ideal.add(g);
            }
        }
        ideal.sort((a, b) -> Integer.compare(b, a));
        double idcg = 0;
        for (int i = 0; i < Math.min(k, ideal.size()); i++) {
            idcg += ideal.get(i) / log2(i + 2);
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    /** success@k: 1 when a relevant document is within the top k, else 0. */
    public static double success(List<String> ranked, Map<String, Integer> grades, int k) {
        return reciprocalRank(ranked, grades, k) > 0 ? 1 : 0;
    }

    /** recall@k: the share of the relevant documents found within the top k; 0 when none is relevant. */
    public static double recall(List<String> ranked, Map<String, Integer> grades, int k) {
        long relevant = grades.values().stream().filter(g -> g >= 1).count();
        if (relevant == 0) {
            return 0;
        }
        return count(top(ranked, k), grades, 1, Integer.MAX_VALUE, false) / (double) relevant;
    }

    /**
     * Rubric: the share of the shown results (the first {@code min(k, results)}) graded 1 or more; 0 when nothing is
     * shown. The denominator is what was shown, so a short list is not charged for results it did not return.
     */
    public static double relevantPrecision(List<String> ranked, Map<String, Integer> grades, int k) {
        List<String> top = top(ranked, k);
        return top.isEmpty() ? 0 : count(top, grades, 1, Integer.MAX_VALUE, false) / (double) top.size();
    }

    /** Rubric: the share of the shown results graded {@value Qrels#HIGHLY_RELEVANT} or more. */
    public static double highlyRelevantPrecision(List<String> ranked, Map<String, Integer> grades, int k) {
        List<String> top = top(ranked, k);
        return top.isEmpty() ? 0
                : count(top, grades, Qrels.HIGHLY_RELEVANT, Integer.MAX_VALUE, false) / (double) top.size();
    }

    /** Rubric: the share of the shown results that are noise: graded 0 (or less) or unjudged. */
    public static double noise(List<String> ranked, Map<String, Integer> grades, int k) {
        List<String> top = top(ranked, k);
        return top.isEmpty() ? 0 : count(top, grades, Integer.MIN_VALUE, 0, true) / (double) top.size();
    }

    /** Rubric: the share of the shown results that are unjudged (part of {@link #noise}), shown so it is visible. */
    public static double unjudged(List<String> ranked, Map<String, Integer> grades, int k) {
        List<String> top = top(ranked, k);
        if (top.isEmpty()) {
            return 0;
        }
        int n = 0;
        for (String id : top) {
            if (!grades.containsKey(id)) {
                n++;
            }
        }
        return n / (double) top.size();
    }

    /** The first {@code k} distinct ids of {@code ranked}, in order. */
    static List<String> top(List<String> ranked, int k) {
        Checks.positive(k, "k");
        Set<String> seen = new LinkedHashSet<>();
        for (String id : ranked) {
            if (seen.size() == k) {
                break;
            }
            if (id != null) {
                seen.add(id);
            }
        }
        return new ArrayList<>(seen);
    }

    private static int count(List<String> ids, Map<String, Integer> grades, int min, int max, boolean unjudged) {
        int n = 0;
        for (String id : ids) {
            Integer g = grades.get(id);
            if (g == null ? unjudged : g >= min && g <= max) {
                n++;
            }
        }
        return n;
    }

    private static int grade(Map<String, Integer> grades, String id) {
        Integer g = grades.get(id);
        return g == null ? 0 : g;
    }

    private static double log2(int x) {
        return Math.log(x) / Math.log(2);
    }
}
