package dev.neuraltext.lab;

import dev.neuraltext.cli.eval.IndexedChunk;
import dev.neuraltext.cli.eval.ProgressBar;
import dev.neuraltext.cli.eval.ReportWriter;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.eval.EvalRun;
import dev.neuraltext.eval.EvalRunner;
import dev.neuraltext.eval.QueryResult;
import dev.neuraltext.eval.Summary;
import dev.neuraltext.fusion.FusedResult;
import dev.neuraltext.fusion.Fusion;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.retrieve.GradedFusion;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Fits the parameters of {@link GradedFusion} across datasets with leave-one-dataset-out: every query's BM25 and
 * dense lists are retrieved once ({@value #LEG_DEPTH} each), then every candidate of a grid is fused offline with the
 * library's own {@link Fusion} and scored (MRR@k). For each dataset, the candidate with the best mean MRR over the
 * other datasets is reported with its fitted (training) and held-out figures; the candidate best over all datasets is
 * the one to ship. The figures a shipped default claims come from a normal eval run afterwards, not from this fit.
 * Not thread-safe.
 */
final class FusionFit {

    /** Candidates per leg fused, as deep as the retriever's default minimum per-leg limit, doubled for safety. */
    static final int LEG_DEPTH = 200;

    /**
     * One dataset's leg lists.
     *
     * @param extra  further ranked lists per query, by name, for {@link BeyondWeights} (ids are chunk ids, or file keys
     *               for {@link BeyondWeights#FILE_BM25})
     * @param fileOf each chunk id's file
     */
    record DatasetLegs(EvalDataset dataset, List<EvalQuery> queries, List<Map<Leg, List<LegResult>>> legs,
            Map<String, List<List<LegResult>>> extra, Map<String, String> fileOf) {

        DatasetLegs(EvalDataset dataset, List<EvalQuery> queries, List<Map<Leg, List<LegResult>>> legs) {
            this(dataset, queries, legs, Map.of(), Map.of());
        }

        /** A copy with more extra lists (insertion order kept). */
        DatasetLegs withExtra(Map<String, List<List<LegResult>>> more, Map<String, String> files) {
            Map<String, List<List<LegResult>>> all = new java.util.LinkedHashMap<>(extra);
            all.putAll(more);
            return new DatasetLegs(dataset, queries, legs, all, files);
        }
    }

    private final EvalRunner runner;
    private final int k;

    FusionFit(EvalRunner runner) {
        this.runner = runner;
        this.k = runner.suite().k();
    }

    /** Runs each query once per leg and keeps the ranked lists. */
    static DatasetLegs collect(EvalDataset dataset, HybridCaseRetriever retriever, ProgressBar progress) {
        List<Map<Leg, List<LegResult>>> all = new ArrayList<>();
        progress.start("leg lists " + dataset.name(), dataset.queries().size());
        int i = 0;
        for (EvalQuery q : dataset.queries()) {
            Map<Leg, List<LegResult>> legs = new EnumMap<>(Leg.class);
            for (Leg leg : List.of(Leg.BM25, Leg.DENSE)) {
                List<LegResult> list = new ArrayList<>();
                for (SearchHit h : retriever.search(SearchRequest.builder(q.text()).limit(LEG_DEPTH).legs(Set.of(leg))
                        .fusion(FusionMethod.rrf(60)).adaptive(false).rerank(false).build()).hits()) {
                    list.add(new LegResult(h.id(), h.legs().get(leg).score()));
                }
                legs.put(leg, list);
            }
            all.add(legs);
            progress.update(++i);
        }
        progress.finish();
        return new DatasetLegs(dataset, dataset.queries(), all);
    }

    /** The cut-off k of the metrics. */
    int k() {
        return k;
    }

    /** The name of the MRR metric ({@code mrr@10}). */
    String mrrName() {
        return runner.suite().mrr();
    }

    /** The reciprocal rank of the first relevant id (grade >= 1) among the first k of {@code ids}, else 0. */
    double reciprocalRank(DatasetLegs d, int query, List<String> ids) {
        Map<String, Integer> grades = d.dataset().judgments(d.queries().get(query));
        for (int r = 0; r < Math.min(k, ids.size()); r++) {
            Integer g = grades.get(d.dataset().canonicalId(ids.get(r)));
            if (g != null && g >= 1) {
                return 1.0 / (r + 1);
            }
        }
        return 0;
    }

    /** The grid searched: k, bias, code, stop-word and identifier coefficients (log-weight units). */
    static List<GradedFusion> grid() {
        List<GradedFusion> out = new ArrayList<>();
        for (int kk : new int[] {10, 20, 40, 60}) {
            for (double bias : new double[] {-1, -0.5, 0, 0.5, 1, 1.5, 2}) {
                for (double code : new double[] {0, 1, 2, 3}) {
                    for (double stop : new double[] {-2, -1, 0, 1}) {
                        for (double id : new double[] {0, 1, 2, 3}) {
                            out.add(new GradedFusion(kk, bias, code, stop, id));
                        }
                    }
                }
            }
        }
        out.add(GradedFusion.shapeSwitch());
        return out;
    }

    /** The run of {@code fusion} on one dataset, lists cut at {@code depth}. */
    EvalRun run(DatasetLegs d, String name, java.util.function.Function<String, FusionMethod> fusion, int depth) {
        List<QueryResult> results = new ArrayList<>(d.queries().size());
        for (int i = 0; i < d.queries().size(); i++) {
            EvalQuery q = d.queries().get(i);
            List<String> ids = new ArrayList<>();
            for (FusedResult r : Fusion.of(fusion.apply(q.text())).fuse(d.legs().get(i), depth)) {
                ids.add(r.id());
            }
            results.add(runner.score(d.dataset(), q, ids, 0));
        }
        return new EvalRun(name, d.dataset().name(), runner.suite(), results);
    }

    /** One leg alone as a run. */
    EvalRun leg(DatasetLegs d, Leg leg, int depth) {
        List<QueryResult> results = new ArrayList<>(d.queries().size());
        for (int i = 0; i < d.queries().size(); i++) {
            List<String> ids = new ArrayList<>();
            for (LegResult r : d.legs().get(i).get(leg)) {
                if (ids.size() == depth) {
                    break;
                }
                ids.add(r.id());
            }
            results.add(runner.score(d.dataset(), d.queries().get(i), ids, 0));
        }
        return new EvalRun(leg.label(), d.dataset().name(), runner.suite(), results);
    }

    /**
     * MRR@k of {@code f} on {@code d}, fast: the same sums and tie-break as {@link dev.neuraltext.fusion.RrfFusion}
     * (fused score, then best rank in any leg, then id), without building result objects. {@link #run} is the
     * reference; {@code FusionFitTest} checks that both agree.
     */
    double mrr(DatasetLegs d, GradedFusion f) {
        double sum = 0;
        for (double rr : reciprocalRanks(d, f)) {
            sum += rr;
        }
        return sum / d.queries().size();
    }

    /** Each query's reciprocal rank (0 beyond k) under {@code f}, as {@link #mrr} counts it. */
    double[] reciprocalRanks(DatasetLegs d, GradedFusion f) {
        double[] out = new double[d.queries().size()];
        for (int i = 0; i < d.queries().size(); i++) {
            EvalQuery q = d.queries().get(i);
            double w = f.bm25Weight(q.text());
            Candidates c = candidates(d, i);
            int n = c.ids.length;
            double[] score = new double[n];
            for (int j = 0; j < n; j++) {
                double b = c.bm25Rank[j] > 0 ? w / (f.k() + c.bm25Rank[j]) : 0;
                double dn = c.denseRank[j] > 0 ? 1.0 / (f.k() + c.denseRank[j]) : 0;
                score[j] = b <= dn ? b + dn : dn + b; // ascending order, as the library sums
            }
            int[] top = new int[Math.min(k, n)];
            int filled = 0;
            for (int j = 0; j < n; j++) {
                int at = filled;
                while (at > 0 && better(c, score, j, top[at - 1])) {
                    at--;
                }
                if (at >= top.length) {
                    continue;
                }
                int end = Math.min(filled, top.length - 1);
                System.arraycopy(top, at, top, at + 1, end - at);
                top[at] = j;
                filled = Math.min(filled + 1, top.length);
            }
            Map<String, Integer> grades = d.dataset().judgments(q);
            for (int r = 0; r < filled; r++) {
                Integer g = grades.get(d.dataset().canonicalId(c.ids[top[r]]));
                if (g != null && g >= 1) {
                    out[i] = 1.0 / (r + 1);
                    break;
                }
            }
        }
        return out;
    }

    /** The boosts of the query-intent reference rows ({@link NamedSymbolBoost}). */
    static final double[] INTENT_BETAS = {0.05, 0.1, 0.3};

    /** MRR@k of {@code f} followed by {@link NamedSymbolBoost} with {@code beta}, over each document's indexed chunk. */
    double intent(DatasetLegs d, GradedFusion f, double beta) {
        Map<String, dev.neuraltext.chunk.ChunkInput> chunks = new java.util.HashMap<>();
        d.dataset().documents().forEach(doc -> chunks.put(doc.id(), IndexedChunk.of(doc)));
        List<QueryResult> results = new ArrayList<>(d.queries().size());
        for (int i = 0; i < d.queries().size(); i++) {
            EvalQuery q = d.queries().get(i);
            List<FusedResult> fused = Fusion.of(f.methodFor(q.text())).fuse(d.legs().get(i), LEG_DEPTH);
            results.add(runner.score(d.dataset(), q, NamedSymbolBoost.apply(q.text(), fused, chunks, beta), 0));
        }
        return new EvalRun("intent", d.dataset().name(), runner.suite(), results).overall().mean(runner.suite().mrr());
    }

    /** The BM25 weights the per-query upper bound ({@link #oracle}) chooses from. */
    static final double[] ORACLE_WEIGHTS = {0.01, 0.03, 0.1, 0.3, 0.5, 1, 2, 3, 5, 10, 30, 100};

    /**
     * An upper bound, not a method: MRR@k when every query gets the BM25 weight (of {@link #ORACLE_WEIGHTS}, RRF
     * constant {@code k}) that is best for that very query. No rule that weighs two leg lists per query can beat it.
     */
    double oracle(DatasetLegs d, int rrfK) {
        double[] best = new double[d.queries().size()];
        for (double w : ORACLE_WEIGHTS) {
            double[] rr = reciprocalRanks(d, new GradedFusion(rrfK, Math.log(w), 0, 0, 0));
            for (int i = 0; i < best.length; i++) {
                best[i] = Math.max(best[i], rr[i]);
            }
        }
        double sum = 0;
        for (double b : best) {
            sum += b;
        }
        return sum / best.length;
    }

    /** The BM25 shares of the score-aware reference rows ({@link FusionMethod.Weighted}, dense gets the rest). */
    static final double[] CONVEX_BM25_SHARES = {0.3, 0.5, 0.7, 0.9};

    /** A score-aware fusion: the convex combination of min-max normalised scores with {@code bm25Share} on BM25. */
    static FusionMethod convex(double bm25Share) {
        return FusionMethod.weighted(Map.of(Leg.BM25, bm25Share, Leg.DENSE, 1 - bm25Share));
    }

    private static boolean better(Candidates c, double[] score, int a, int b) {
        if (score[a] != score[b]) {
            return score[a] > score[b];
        }
        int ra = best(c.bm25Rank[a], c.denseRank[a]);
        int rb = best(c.bm25Rank[b], c.denseRank[b]);
        if (ra != rb) {
            return ra < rb;
        }
        return c.ids[a].compareTo(c.ids[b]) < 0;
    }

    private static int best(int x, int y) {
        return x == 0 ? y : y == 0 ? x : Math.min(x, y);
    }

    /** The union of a query's leg lists with each candidate's 1-based rank per leg (0: not in that leg). */
    private record Candidates(String[] ids, int[] bm25Rank, int[] denseRank) {
    }

    private final Map<DatasetLegs, List<Candidates>> candidates = new java.util.IdentityHashMap<>();

    private Candidates candidates(DatasetLegs d, int query) {
        return candidates.computeIfAbsent(d, x -> {
            List<Candidates> all = new ArrayList<>();
            for (Map<Leg, List<LegResult>> legs : x.legs()) {
                Map<String, int[]> ranks = new java.util.LinkedHashMap<>();
                List<LegResult> b = legs.get(Leg.BM25);
                for (int r = 0; r < b.size(); r++) {
                    int[] v = ranks.computeIfAbsent(b.get(r).id(), id -> new int[2]);
                    if (v[0] == 0) {
                        v[0] = r + 1;
                    }
                }
                List<LegResult> dn = legs.get(Leg.DENSE);
                for (int r = 0; r < dn.size(); r++) {
                    int[] v = ranks.computeIfAbsent(dn.get(r).id(), id -> new int[2]);
                    if (v[1] == 0) {
                        v[1] = r + 1;
                    }
                }
                String[] ids = ranks.keySet().toArray(String[]::new);
                int[] br = new int[ids.length];
                int[] dr = new int[ids.length];
                for (int j = 0; j < ids.length; j++) {
                    br[j] = ranks.get(ids[j])[0];
                    dr[j] = ranks.get(ids[j])[1];
                }
                all.add(new Candidates(ids, br, dr));
            }
            return all;
        }).get(query);
    }

    private GradedFusion fittedOnAll;

    /**
     * The candidate the last {@link #report} chose on all datasets by the smallest gain over the best leg, or null
     * before a report.
     */
    GradedFusion fittedOnAll() {
        return fittedOnAll;
    }

    /** The leave-one-dataset-out report (Markdown). */
    String report(List<DatasetLegs> data, ProgressBar progress) {
        List<GradedFusion> grid = grid();
        double[][] scores = new double[grid.size()][data.size()];
        progress.start("fusion grid", grid.size());
        for (int g = 0; g < grid.size(); g++) {
            for (int d = 0; d < data.size(); d++) {
                scores[g][d] = mrr(data.get(d), grid.get(g));
            }
            progress.update(g + 1);
        }
        progress.finish();
        String mrr = runner.suite().mrr();
        StringBuilder sb = new StringBuilder("# Graded fusion fitted leave-one-dataset-out (" + grid.size()
                + " candidates, " + mrr + ")\n\n");
        double[] bestLeg = new double[data.size()];
        for (int d = 0; d < data.size(); d++) {
            bestLeg[d] = Math.max(leg(data.get(d), Leg.BM25, k).overall().mean(mrr),
                    leg(data.get(d), Leg.DENSE, k).overall().mean(mrr));
        }
        sb.append("Chosen by the best mean on the other datasets:\n\n");
        folds(sb, data, grid, scores, bestLeg, false);
        sb.append("\nChosen by the best smallest gain over the better single leg on the other datasets (ties: mean)"
                + ", so that the fusion is never worse than its best leg:\n\n");
        fittedOnAll = folds(sb, data, grid, scores, bestLeg, true);
        sb.append("\nReference rows (same leg lists):\n\n");
        List<String> refHead = new ArrayList<>(List.of("technique"));
        data.forEach(d -> refHead.add(d.dataset().name()));
        ReportWriter.row(sb, refHead);
        ReportWriter.separator(sb, refHead.size());
        for (Leg leg : List.of(Leg.BM25, Leg.DENSE)) {
            List<String> cells = new ArrayList<>(List.of(leg.label()));
            data.forEach(d -> cells.add(ReportWriter.f3(leg(d, leg, k).overall().mean(mrr))));
            ReportWriter.row(sb, cells);
        }
        for (GradedFusion f : List.of(GradedFusion.shapeSwitch(), GradedFusion.defaults())) {
            List<String> cells = new ArrayList<>(List.of(describe(f)));
            data.forEach(d -> cells.add(ReportWriter.f3(mrr(d, f))));
            ReportWriter.row(sb, cells);
        }
        for (double share : CONVEX_BM25_SHARES) {
            List<String> cells = new ArrayList<>(List.of(String.format(Locale.ROOT,
                    "score-aware: convex min-max, BM25 %.1f, dense %.1f", share, 1 - share)));
            FusionMethod m = convex(share);
            data.forEach(d -> cells.add(ReportWriter.f3(run(d, "convex", q -> m, k).overall().mean(mrr))));
            ReportWriter.row(sb, cells);
        }
        for (double beta : INTENT_BETAS) {
            List<String> cells = new ArrayList<>(List.of(String.format(Locale.ROOT,
                    "query intent: default + named-symbol boost %.2f", beta)));
            data.forEach(d -> cells.add(ReportWriter.f3(intent(d, GradedFusion.defaults(), beta))));
            ReportWriter.row(sb, cells);
        }
        int rrfK = GradedFusion.defaults().k();
        List<String> bound = new ArrayList<>(List.of("upper bound: best BM25 weight per query (RRF k " + rrfK + ")"));
        data.forEach(d -> bound.add(ReportWriter.f3(oracle(d, rrfK))));
        ReportWriter.row(sb, bound);
        sb.append('\n');
        return sb.toString();
    }

    /** Slices of {@code fusion} against BM25 alone, per dataset (Markdown). */
    String slices(List<DatasetLegs> data, GradedFusion fusion, List<String> sliceBy) {
        String mrr = runner.suite().mrr();
        StringBuilder sb = new StringBuilder("## " + describe(fusion) + " by slice against BM25 (" + mrr + ")\n\n");
        ReportWriter.row(sb, List.of("dataset", "slice", "queries", "bm25", "dense", "fused", "fused - bm25"));
        ReportWriter.separator(sb, 7);
        for (DatasetLegs d : data) {
            EvalRun b = leg(d, Leg.BM25, 100);
            EvalRun dn = leg(d, Leg.DENSE, 100);
            EvalRun f = run(d, "fused", fusion::methodFor, 100);
            addSlice(sb, d.dataset().name(), "all", b.overall(), dn.overall(), f.overall(), mrr);
            for (String key : sliceBy) {
                for (Map.Entry<String, Summary> e : f.bySlice(key).entrySet()) {
                    if (e.getKey().equals(EvalRun.NO_VALUE)) {
                        continue;
                    }
                    addSlice(sb, d.dataset().name(), key + "=" + e.getKey(), b.bySlice(key).get(e.getKey()),
                            dn.bySlice(key).get(e.getKey()), e.getValue(), mrr);
                }
            }
        }
        sb.append('\n');
        return sb.toString();
    }

    private static void addSlice(StringBuilder sb, String ds, String slice, Summary b, Summary d, Summary f,
            String mrr) {
        ReportWriter.row(sb, List.of(ds, slice, Integer.toString(f.queries()), ReportWriter.f3(b.mean(mrr)),
                ReportWriter.f3(d.mean(mrr)), ReportWriter.f3(f.mean(mrr)),
                String.format(Locale.ROOT, "%+.3f", f.mean(mrr) - b.mean(mrr))));
    }

    /**
     * One row per fold (and one fitted on all): the candidate chosen on the other datasets, by mean MRR or, with
     * {@code worstGain}, by the smallest gain over each dataset's better single leg ({@code bestLeg}).
     */
    private static GradedFusion folds(StringBuilder sb, List<DatasetLegs> data, List<GradedFusion> grid, double[][] scores,
            double[] bestLeg, boolean worstGain) {
        List<String> head = new ArrayList<>(List.of("held out", "chosen (k, bias, code, stop, identifier)",
                worstGain ? "smallest gain over the best leg on the others" : "fitted mean on the others"));
        data.forEach(d -> head.add(d.dataset().name()));
        ReportWriter.row(sb, head);
        ReportWriter.separator(sb, head.size());
        GradedFusion onAll = null;
        for (int out = -1; out < data.size(); out++) {
            int best = 0;
            double bestKey = Double.NEGATIVE_INFINITY;
            double bestMean = Double.NEGATIVE_INFINITY;
            for (int g = 0; g < grid.size(); g++) {
                double sum = 0;
                double worst = Double.POSITIVE_INFINITY;
                int n = 0;
                for (int d = 0; d < data.size(); d++) {
                    if (d != out) {
                        sum += scores[g][d];
                        worst = Math.min(worst, scores[g][d] - bestLeg[d]);
                        n++;
                    }
                }
                double mean = sum / n;
                double key = worstGain ? worst : mean;
                if (key > bestKey + 1e-12 || Math.abs(key - bestKey) <= 1e-12 && mean > bestMean + 1e-12) {
                    bestKey = key;
                    bestMean = mean;
                    best = g;
                }
            }
            List<String> cells = new ArrayList<>(List.of(out < 0 ? "(none: fit on all)"
                    : data.get(out).dataset().name(), describe(grid.get(best)), worstGain
                    ? String.format(Locale.ROOT, "%+.3f", bestKey) : ReportWriter.f3(bestKey)));
            for (int d = 0; d < data.size(); d++) {
                cells.add((d == out ? "**" : "") + ReportWriter.f3(scores[best][d]) + (d == out ? "** (held out)" : ""));
            }
            ReportWriter.row(sb, cells);
            if (out < 0) {
                onAll = grid.get(best);
            }
        }
        return onAll;
    }

    static String describe(GradedFusion f) {
        return String.format(Locale.ROOT, "k %d, bias %.1f, code %.1f, stop %.1f, identifier %.2f", f.k(), f.bias(),
                f.codeCoefficient(), f.stopWordCoefficient(), f.identifierCoefficient());
    }
}
