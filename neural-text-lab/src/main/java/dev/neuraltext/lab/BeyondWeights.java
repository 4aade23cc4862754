package dev.neuraltext.lab;

import dev.neuraltext.cli.eval.ReportWriter;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.retrieve.GradedFusion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What ranking can add beyond the two legs' weights, measured on the leg lists of {@link FusionFit} (eval only; none of
 * it is in the library, because none of it helped): the default {@link GradedFusion} plus
 * <ul>
 *   <li>structure-aware evidence: each candidate gains {@code beta} times the best fused score of another candidate
 *       of its file (both on the normalised RRF scale, 1 = first in every leg);</li>
 *   <li>a third RRF leg at weight {@code w} (constant k of the fusion): a file-level BM25 (each candidate gets the
 *       contribution of its file's rank), a pseudo-relevance-feedback BM25, a dense leg over windows, or a second
 *       dense model ({@link ExtraLegs}, {@link DenseWindows});</li>
 *   <li>the dense leg replaced by a windowed one;</li>
 *   <li>agreement: {@code beta} added when a candidate is in the top 5 of both legs;</li>
 *   <li>a literal-match leg ({@link dev.neuraltext.cli.eval.GrepPeer}: whole query words, such as {@code container.start()}, found verbatim)
 *       as a third leg, for every query or only for queries with a code-like token.</li>
 * </ul>
 * Each family's parameter is chosen leave-one-dataset-out (best mean MRR on the other datasets) and its held-out
 * figure reported. Ties are broken as {@link dev.neuraltext.fusion.RrfFusion} breaks them (score, then best rank in
 * any leg, then id). Not thread-safe.
 */
final class BeyondWeights {

    /** The agreement depth: a candidate in the top {@value} of both legs. */
    static final int AGREEMENT_DEPTH = 5;

    /**
     * One way of ranking.
     *
     * @param family       the rows chosen among leave-one-dataset-out
     * @param label        the row's label
     * @param denseList    the extra list replacing the dense leg, or null
     * @param thirdList    the extra list fused as a third leg, or null
     * @param thirdWeight  its RRF weight
     * @param thirdByFile  whether the third list ranks files (each candidate gets its file's contribution)
     * @param sibling      the share of the best same-file candidate's fused score added
     * @param agreement    the score added to a candidate in the top {@value #AGREEMENT_DEPTH} of both legs
     * @param thirdOnCodeOnly whether the third leg runs only for queries with a code-like token
     * @param thirdOnExpressionOnly whether the third leg runs only for queries that are a code expression
     */
    record Variant(String family, String label, String denseList, String thirdList, double thirdWeight,
            boolean thirdByFile, double sibling, double agreement, boolean thirdOnCodeOnly,
            boolean thirdOnExpressionOnly) {

        Variant(String family, String label, String denseList, String thirdList, double thirdWeight,
                boolean thirdByFile, double sibling, double agreement) {
            this(family, label, denseList, thirdList, thirdWeight, thirdByFile, sibling, agreement, false, false);
        }

        static Variant base() {
            return new Variant("default", "default graded fusion", null, null, 0, false, 0, 0);
        }

        Variant third(String family, String label, String list, double weight, boolean byFile) {
            return new Variant(family, label, null, list, weight, byFile, 0, 0);
        }

        /** The third leg only for queries with a code-like token ({@link #codeShare} above 0), else none. */
        Variant onCodeOnly() {
            return new Variant(family + ", code-like queries only", label + " (code-like queries only)", denseList,
                    thirdList, thirdWeight, thirdByFile, sibling, agreement, true, false);
        }

        /** The third leg only for a query that is a code expression ({@link #isExpressionQuery}), else none. */
        Variant onExpressionOnly() {
            return new Variant(family + ", expression queries only", label + " (expression queries only)",
                    denseList, thirdList, thirdWeight, thirdByFile, sibling, agreement, false, true);
        }
    }

    private static final java.util.regex.Pattern EXPRESSION =
            java.util.regex.Pattern.compile("[\\p{L}\\p{N}_$][.#][\\p{L}_$]|[\\p{L}\\p{N}_$]\\(");

    /**
     * Whether the query is a code expression: identifier-shaped as {@link GradedFusion} sees it, with a member access
     * or a call in it ({@code container.start()}, {@code org.example.Type}, {@code withReuse()}).
     */
    static boolean isExpressionQuery(String query) {
        return new GradedFusion(0, 0, 0, 0, 1).bm25Weight(query) > 1.5 && EXPRESSION.matcher(query).find();
    }

    /** The share of the query's tokens that look like code, as {@link GradedFusion} computes it. */
    static double codeShare(String query) {
        return Math.log(new GradedFusion(0, 0, 1, 0, 0).bm25Weight(query));
    }

    private final FusionFit fit;
    private final GradedFusion fusion;

    BeyondWeights(FusionFit fit, GradedFusion fusion) {
        this.fit = fit;
        this.fusion = fusion;
    }

    /** The variants measured, for the extra lists the datasets carry. */
    static List<Variant> variants(Map<String, ?> extra) {
        List<Variant> out = new ArrayList<>();
        Variant base = Variant.base();
        out.add(base);
        for (double beta : new double[] {0.02, 0.05, 0.1, 0.2, 0.5}) {
            out.add(new Variant("structure", "+ " + beta + " x best sibling in the file", null, null, 0, false, beta,
                    0));
        }
        for (double beta : new double[] {0.02, 0.05, 0.1, 0.2}) {
            out.add(new Variant("agreement", "+ " + beta + " when in the top " + AGREEMENT_DEPTH + " of both legs",
                    null, null, 0, false, 0, beta));
        }
        for (String list : extra.keySet()) {
            boolean byFile = list.equals(BeyondWeights.FILE_BM25);
            for (double w : new double[] {0.1, 0.2, 0.5, 1.0}) {
                out.add(base.third("third leg " + list, "+ " + list + " at weight " + w, list, w, byFile));
            }
            if (list.equals(GREP)) {
                for (double w : new double[] {0.5, 1.0, 2.0, 5.0, 10.0}) {
                    out.add(base.third("third leg " + list, "+ " + list + " at weight " + w, list, w, false)
                            .onCodeOnly());
                    out.add(base.third("third leg " + list, "+ " + list + " at weight " + w, list, w, false)
                            .onExpressionOnly());
                }
            }
            if (list.startsWith(DENSE_PREFIX)) {
                out.add(new Variant("dense leg replaced", list + " instead of the dense leg", list, null, 0, false, 0,
                        0));
            }
        }
        return out;
    }

    /** The name of the file-level BM25 list. */
    static final String FILE_BM25 = "file-level BM25";
    /** The name of the literal-match list ({@link dev.neuraltext.cli.eval.GrepPeer}). */
    static final String GREP = "grep (literal words)";
    /** The prefix of dense extra lists. */
    static final String DENSE_PREFIX = "dense";

    /** Each query's ids under {@code v}, best first, at most k. */
    List<String> ranked(FusionFit.DatasetLegs d, int query, Variant v) {
        EvalQuery q = d.queries().get(query);
        int k = fusion.k();
        double w = fusion.bm25Weight(q.text());
        Map<Leg, List<LegResult>> legs = d.legs().get(query);
        List<LegResult> dense = v.denseList() == null ? legs.get(Leg.DENSE) : d.extra().get(v.denseList()).get(query);
        Map<String, double[]> score = new LinkedHashMap<>(); // id -> {score, best rank, bm25 rank, dense rank}
        add(score, legs.get(Leg.BM25), w, k, 2);
        add(score, dense, 1, k, 3);
        double max = (w + 1) / (k + 1.0);
        if (v.thirdList() != null && (!v.thirdOnCodeOnly() || codeShare(q.text()) > 0)
                && (!v.thirdOnExpressionOnly() || isExpressionQuery(q.text()))) {
            List<LegResult> third = d.extra().get(v.thirdList()).get(query);
            max += v.thirdWeight() / (k + 1.0);
            if (v.thirdByFile()) {
                Map<String, Integer> fileRank = new HashMap<>();
                for (int r = 0; r < third.size(); r++) {
                    fileRank.putIfAbsent(third.get(r).id(), r + 1);
                }
                for (Map.Entry<String, double[]> e : score.entrySet()) {
                    Integer r = fileRank.get(d.fileOf().getOrDefault(e.getKey(), e.getKey()));
                    if (r != null) {
                        e.getValue()[0] += v.thirdWeight() / (k + r);
                    }
                }
            } else {
                add(score, third, v.thirdWeight(), k, -1);
            }
        }
        for (double[] s : score.values()) {
            s[0] /= max;
        }
        if (v.sibling() > 0) {
            Map<String, double[]> bestTwo = new HashMap<>(); // file -> {best, second}
            for (Map.Entry<String, double[]> e : score.entrySet()) {
                double[] b = bestTwo.computeIfAbsent(d.fileOf().getOrDefault(e.getKey(), e.getKey()),
                        f -> new double[] {0, 0});
                double s = e.getValue()[0];
                if (s > b[0]) {
                    b[1] = b[0];
                    b[0] = s;
                } else if (s > b[1]) {
                    b[1] = s;
                }
            }
            Map<String, Double> lifted = new HashMap<>();
            for (Map.Entry<String, double[]> e : score.entrySet()) {
                double[] b = bestTwo.get(d.fileOf().getOrDefault(e.getKey(), e.getKey()));
                double s = e.getValue()[0];
                double sibling = s == b[0] ? b[1] : b[0];
                lifted.put(e.getKey(), s + v.sibling() * sibling);
            }
            lifted.forEach((id, s) -> score.get(id)[0] = s);
        }
        if (v.agreement() > 0) {
            for (double[] s : score.values()) {
                if (s[2] > 0 && s[2] <= AGREEMENT_DEPTH && s[3] > 0 && s[3] <= AGREEMENT_DEPTH) {
                    s[0] += v.agreement();
                }
            }
        }
        List<Map.Entry<String, double[]>> all = new ArrayList<>(score.entrySet());
        all.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Double.compare(b.getValue()[0], a.getValue()[0])
                : a.getValue()[1] != b.getValue()[1] ? Double.compare(a.getValue()[1], b.getValue()[1])
                : a.getKey().compareTo(b.getKey()));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(all.size(), fit.k()); i++) {
            out.add(all.get(i).getKey());
        }
        return out;
    }

    /** Adds a leg's RRF contributions; {@code slot} (2 or 3) records the rank in BM25 or dense, -1 none. */
    private static void add(Map<String, double[]> score, List<LegResult> list, double weight, int k, int slot) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int r = 0; r < list.size(); r++) {
            String id = list.get(r).id();
            if (!seen.add(id)) {
                continue;
            }
            double[] s = score.computeIfAbsent(id, x -> new double[] {0, Double.MAX_VALUE, 0, 0});
            s[0] += weight / (k + r + 1);
            s[1] = Math.min(s[1], r + 1);
            if (slot > 0) {
                s[slot] = r + 1;
            }
        }
    }

    /** MRR@k of {@code v} on {@code d}. */
    double mrr(FusionFit.DatasetLegs d, Variant v) {
        double sum = 0;
        for (int i = 0; i < d.queries().size(); i++) {
            sum += fit.reciprocalRank(d, i, ranked(d, i, v));
        }
        return sum / d.queries().size();
    }

    /** The Markdown report: every variant on every dataset, then each family chosen leave-one-dataset-out. */
    String report(List<FusionFit.DatasetLegs> data) {
        List<Variant> variants = variants(data.get(0).extra());
        double[][] s = new double[variants.size()][data.size()];
        for (int v = 0; v < variants.size(); v++) {
            for (int d = 0; d < data.size(); d++) {
                s[v][d] = mrr(data.get(d), variants.get(v));
            }
        }
        StringBuilder sb = new StringBuilder("# Beyond the leg weights (" + FusionFit.describe(fusion) + ", "
                + fit.mrrName() + ")\n\n");
        List<String> head = new ArrayList<>(List.of("family", "variant"));
        data.forEach(d -> head.add(d.dataset().name()));
        ReportWriter.row(sb, head);
        ReportWriter.separator(sb, head.size());
        for (String list : data.get(0).extra().keySet()) {
            if (list.equals(FILE_BM25)) {
                continue;
            }
            List<String> cells = new ArrayList<>(List.of("alone", list));
            for (FusionFit.DatasetLegs d : data) {
                double sum = 0;
                for (int i = 0; i < d.queries().size(); i++) {
                    List<String> ids = new ArrayList<>();
                    for (LegResult r : d.extra().get(list).get(i)) {
                        if (ids.size() == fit.k()) {
                            break;
                        }
                        ids.add(r.id());
                    }
                    sum += fit.reciprocalRank(d, i, ids);
                }
                cells.add(ReportWriter.f3(sum / d.queries().size()));
            }
            ReportWriter.row(sb, cells);
        }
        for (int v = 0; v < variants.size(); v++) {
            List<String> cells = new ArrayList<>(List.of(variants.get(v).family(), variants.get(v).label()));
            for (int d = 0; d < data.size(); d++) {
                cells.add(ReportWriter.f3(s[v][d]));
            }
            ReportWriter.row(sb, cells);
        }
        sb.append("\nEach family's parameter chosen on the other datasets (best mean), held-out figure in bold:\n\n");
        List<String> head2 = new ArrayList<>(List.of("family"));
        data.forEach(d -> head2.add(d.dataset().name() + " held out: chosen, figure (default)"));
        ReportWriter.row(sb, head2);
        ReportWriter.separator(sb, head2.size());
        List<String> families = new ArrayList<>();
        variants.forEach(v -> {
            if (!v.family().equals("default") && !families.contains(v.family())) {
                families.add(v.family());
            }
        });
        for (String family : families) {
            List<String> cells = new ArrayList<>(List.of(family));
            for (int out = 0; out < data.size(); out++) {
                int best = -1;
                double bestMean = Double.NEGATIVE_INFINITY;
                for (int v = 0; v < variants.size(); v++) {
                    if (!variants.get(v).family().equals(family)) {
                        continue;
                    }
                    double sum = 0;
                    for (int d = 0; d < data.size(); d++) {
                        if (d != out) {
                            sum += s[v][d];
                        }
                    }
                    if (sum > bestMean + 1e-12) {
                        bestMean = sum;
                        best = v;
                    }
                }
                cells.add(variants.get(best).label() + ": **" + ReportWriter.f3(s[best][out]) + "** ("
                        + ReportWriter.f3(s[0][out]) + ")");
            }
            ReportWriter.row(sb, cells);
        }
        sb.append('\n');
        return sb.toString();
    }
}
