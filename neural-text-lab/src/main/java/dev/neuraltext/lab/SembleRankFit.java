package dev.neuraltext.lab;

import dev.neuraltext.cli.eval.ReportWriter;
import dev.neuraltext.cli.eval.SembleHarness;
import dev.neuraltext.cli.eval.SembleDataset;
import dev.neuraltext.cli.eval.EmbeddingCache;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.eval.RetrievedSpan;
import dev.neuraltext.eval.SpanNdcg;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.retrieve.PreparedCandidates;
import dev.neuraltext.retrieve.RankingSignal;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Fits {@link RepositoryRanking}'s weights on the semble-dev questions and says how they do held out: each repository
 * is indexed once ({@link SembleHarness#index}), each question's fused candidates are taken once without a ranking
 * stage, and weightings are then tried on them by coordinate ascent over a grid (mean over repositories of NDCG@10,
 * semble's rules). Reported: the unranked figure, the current defaults, the fit on all repositories (in sample), and
 * leave-one-language-out (each language's repositories scored with the weights fitted on the others). Not thread-safe.
 */
final class SembleRankFit {

    /** The grid each weight is searched over. */
    static final double[] GRID = {-3, -2, -1, -0.5, -0.3, -0.2, -0.1, -0.05, 0, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 3};
    private static final int PASSES = 3;

    /**
     * How the fit runs.
     *
     * @param method  {@code steepest} ({@link #steepest}, the default), {@code ascent} (cyclic coordinate ascent,
     *                {@link #fit}), {@code linear} ({@link SembleLinearFit}), {@code linear+ascent} or {@code bagged}
     * @param minGain a weight leaves 0 only when that gains at least this much on the training repositories (mean
     *                NDCG@10), so that a constant must earn its place; held out, this keeps weights that fit one
     *                repository's quirks at 0 (default 0.002)
     * @param bags    the bootstrap samples {@link #bagged} averages (default 10)
     * @param lambda  the L2 penalty of {@link SembleLinearFit} (default 0.001)
     * @param dump    where to write every question's top 10 under the weights fitted on all (null: nowhere)
     */
    record Options(String method, double minGain, int bags, double lambda, java.nio.file.Path dump) {

        /** The methods {@link #method} may name. */
        static final List<String> METHODS = List.of("steepest", "ascent", "linear", "linear+ascent", "bagged");

        /** The defaults: the fit that chose {@link RepositoryRanking#wholeRepository()}. */
        static final Options DEFAULTS = new Options("steepest", 0.002, 10, SembleLinearFit.DEFAULT_LAMBDA, null);

        Options {
            if (!METHODS.contains(method)) {
                throw new IllegalArgumentException("--method must be one of " + METHODS + ", got '" + method + "'");
            }
            if (!(minGain >= 0)) {
                throw new IllegalArgumentException("--min-gain must be >= 0, got " + minGain);
            }
            if (bags < 1) {
                throw new IllegalArgumentException("--bags must be >= 1, got " + bags);
            }
            if (!(lambda >= 0)) {
                throw new IllegalArgumentException("--lambda must be >= 0, got " + lambda);
            }
        }
    }

    /** One question's candidates and targets. */
    record Prepared(PreparedCandidates candidates, List<RetrievedSpan> spans, SembleDataset.Question question) {
    }

    /** One repository's prepared questions. */
    record PreparedRepo(String name, String language, List<Prepared> questions) {
    }

    private final PrintStream log;
    private final Options options;

    SembleRankFit(PrintStream log) {
        this(log, Options.DEFAULTS);
    }

    SembleRankFit(PrintStream log, Options options) {
        this.log = log;
        this.options = options;
    }

    /** Indexes every repository and prepares every question's candidates (depth {@link RepositoryRanking#DEFAULT_DEPTH}). */
    List<PreparedRepo> prepare(SembleDataset dataset, Embedder embedder) {
        RepositoryRanking probe = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, Map.of());
        List<PreparedRepo> out = new ArrayList<>();
        for (SembleDataset.Repository repo : dataset.repositories()) {
            SembleHarness.Indexed ix = SembleHarness.index(repo, embedder, RepositoryRanking.off());
            log.printf("fit: %s: %d chunks in %.1f s %s%n", repo.name(), ix.chunks().size(), ix.seconds(), ix.note());
            HybridCaseRetriever r = ix.retriever();
            List<Prepared> qs = new ArrayList<>();
            for (SembleDataset.Question q : repo.questions()) {
                List<SearchHit> hits = r.search(SearchRequest.builder(q.query()).limit(RepositoryRanking.DEFAULT_DEPTH)
                        .adaptive(false).build()).hits();
                PreparedCandidates c = PreparedCandidates.of(probe, q.query(), hits);
                qs.add(new Prepared(c, SembleHarness.spans(c.hits(), repo.prefix()), q));
            }
            out.add(new PreparedRepo(repo.name(), repo.language(), qs));
            if (embedder instanceof EmbeddingCache cache) {
                cache.flush();
            }
        }
        return out;
    }

    /** Mean over {@code repos} of each repository's mean NDCG@10 under {@code ranking}. */
    static double score(List<PreparedRepo> repos, RepositoryRanking ranking) {
        double sum = 0;
        for (PreparedRepo r : repos) {
            sum += repoScore(r, ranking);
        }
        return repos.isEmpty() ? 0 : sum / repos.size();
    }

    static double repoScore(PreparedRepo r, RepositoryRanking ranking) {
        return repoScore(r, ranking, null);
    }

    /** A repository's mean over its questions of {@code category} (all when null); NaN when it has none. */
    static double repoScore(PreparedRepo r, RepositoryRanking ranking, String category) {
        double sum = 0;
        int n = 0;
        for (Prepared p : r.questions()) {
            if (category == null || category.equals(p.question().category())) {
                sum += ndcg(p, ranking);
                n++;
            }
        }
        return n == 0 ? (category == null ? 0 : Double.NaN) : sum / n;
    }

    static double ndcg(Prepared p, RepositoryRanking ranking) {
        int[] order = ranking.isOff() ? identity(p.spans().size()) : p.candidates().order(ranking);
        List<RetrievedSpan> top = new ArrayList<>(SpanNdcg.K);
        for (int i = 0; i < Math.min(SpanNdcg.K, order.length); i++) {
            top.add(p.spans().get(order[i]));
        }
        return SpanNdcg.chunkLevel(top, p.question().targets(), SpanNdcg.K);
    }

    private static int[] identity(int n) {
        int[] o = new int[n];
        for (int i = 0; i < n; i++) {
            o[i] = i;
        }
        return o;
    }

    /** The weights {@link Options#method()} fits on {@code repos} from {@code start}. */
    private RepositoryRanking fitBy(List<PreparedRepo> repos, RepositoryRanking start) {
        return switch (options.method()) {
            case "linear" -> SembleLinearFit.fit(repos, options.lambda());
            case "linear+ascent" -> fit(repos, SembleLinearFit.fit(repos, options.lambda()));
            case "bagged" -> bagged(repos, start);
            case "ascent" -> fit(repos, start);
            default -> steepest(repos, start);
        };
    }

    private String methodDescription() {
        return switch (options.method()) {
            case "steepest" -> "steepest ascent (the single best move at each step)";
            case "ascent" -> "coordinate ascent, " + PASSES + " passes";
            default -> options.method();
        };
    }

    /**
     * Bagged coordinate ascent: the mean of the weights fitted on {@link Options#bags()} bootstrap samples of the
     * repositories (drawn with replacement, seeded by the sample's number, so the result is deterministic). Averaging
     * keeps a weight that only some samples' quirks call for small, which a single fit would set in full.
     */
    RepositoryRanking bagged(List<PreparedRepo> repos, RepositoryRanking start) {
        int bags = options.bags();
        Map<String, Double> sum = new LinkedHashMap<>();
        for (int b = 0; b < bags; b++) {
            java.util.Random random = new java.util.Random(b);
            List<PreparedRepo> sample = new ArrayList<>(repos.size());
            for (int i = 0; i < repos.size(); i++) {
                sample.add(repos.get(random.nextInt(repos.size())));
            }
            fit(sample, start).weights().forEach((k, v) -> sum.merge(k, v, Double::sum));
        }
        Map<String, Double> mean = new LinkedHashMap<>();
        sum.forEach((k, v) -> mean.put(k, Math.round(v / bags * 1000) / 1000.0));
        return new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, mean);
    }

    /**
     * The signals that are evidence for a candidate (it defines the name, its file is named, a leg ranks it high):
     * their weights are searched over the grid's non-negative values only. A negative weight on evidence is a fit
     * exploiting quirks of the dev split (a "BM25 ranked it first" of -0.2 once put {@code Section 0} above the
     * {@code Section 7} a query named), never a rule to ship.
     */
    static final Set<String> EVIDENCE = java.util.Arrays.stream(RankingSignal.values()).filter(RankingSignal::evidence)
            .map(RankingSignal::id).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** Whether parameter {@code name} ({@code signal} or {@code signal.kind}) weighs an {@link #EVIDENCE} signal. */
    static boolean isEvidence(String name) {
        int dot = name.indexOf('.');
        return EVIDENCE.contains(dot < 0 ? name : name.substring(0, dot));
    }

    /**
     * Whether setting {@code name} to {@code v} gives a query kind whose weight of that signal it changes a negative
     * one ({@link RepositoryRanking#weightOf}: a mixed query's is the natural-language one plus its own, so both and
     * their sum must stay non-negative).
     */
    static boolean negative(RepositoryRanking r, String name, double v) {
        RepositoryRanking changed = r.withWeights(Map.of(name, v));
        int dot = name.indexOf('.');
        String signal = dot < 0 ? name : name.substring(0, dot);
        for (RepositoryRanking.QueryKind kind : RepositoryRanking.QueryKind.values()) {
            double after = changed.weightOf(signal, kind);
            if (after < 0 && after != r.weightOf(signal, kind)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Coordinate ascent from {@code start} over {@link #GRID} ({@link #EVIDENCE} weights non-negative),
     * {@value #PASSES} passes, on {@code repos}.
     */
    RepositoryRanking fit(List<PreparedRepo> repos, RepositoryRanking start) {
        RepositoryRanking best = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, start.weights());
        double bestScore = score(repos, best);
        for (int pass = 0; pass < PASSES; pass++) {
            boolean improved = false;
            for (String name : RepositoryRanking.PARAMETERS) {
                for (double v : GRID) {
                    if (!isMove(best, name, v)) {
                        continue;
                    }
                    RepositoryRanking candidate = best.withWeights(Map.of(name, v));
                    double s = score(repos, candidate);
                    if (s > bestScore + requiredGain(best, name)) {
                        best = candidate;
                        bestScore = s;
                        improved = true;
                    }
                }
            }
            if (!improved) {
                break;
            }
        }
        return best;
    }

    /** At most this many moves of {@link #steepest}. */
    private static final int MAX_MOVES = 100;

    /**
     * Steepest ascent from {@code start} over {@link #GRID}: each step tries every parameter at every grid value and
     * makes the single move that gains most (a weight leaving 0 must gain {@link Options#minGain()}), until none gains. Unlike
     * cyclic coordinate ascent, the result does not depend on the order the parameters are listed in.
     */
    RepositoryRanking steepest(List<PreparedRepo> repos, RepositoryRanking start) {
        RepositoryRanking best = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, start.weights());
        double bestScore = score(repos, best);
        for (int move = 0; move < MAX_MOVES; move++) {
            RepositoryRanking next = null;
            double nextScore = 0;
            double nextGain = 0;
            for (String name : RepositoryRanking.PARAMETERS) {
                double required = requiredGain(best, name);
                for (double v : GRID) {
                    if (!isMove(best, name, v)) {
                        continue;
                    }
                    RepositoryRanking candidate = best.withWeights(Map.of(name, v));
                    double s = score(repos, candidate);
                    double gain = s - bestScore - required;
                    if (gain > nextGain) {
                        next = candidate;
                        nextScore = s;
                        nextGain = gain;
                    }
                }
            }
            if (next == null) {
                break;
            }
            best = next;
            bestScore = nextScore;
        }
        return best;
    }

    /** Whether setting {@code name} to {@code v} is a move from {@code r}: a change, evidence kept non-negative. */
    private static boolean isMove(RepositoryRanking r, String name, double v) {
        return v != r.weights().get(name) && !(isEvidence(name) && negative(r, name, v));
    }

    /** What a move of {@code name} from {@code r} must gain: {@link Options#minGain()} to leave 0, else anything. */
    private double requiredGain(RepositoryRanking r, String name) {
        return r.weights().get(name) == 0 ? options.minGain() : 1e-9;
    }

    /**
     * With {@link Options#dump()}: writes every question under {@code ranking} (repository, category, kind,
     * NDCG@10, targets, the top 10 with their signals) to that file, for reading where the ranking fails.
     */
    private void dump(List<PreparedRepo> repos, RepositoryRanking ranking) {
        java.nio.file.Path file = options.dump();
        if (file == null) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (PreparedRepo r : repos) {
            for (Prepared p : r.questions()) {
                sb.append(String.format(Locale.ROOT, "%s\t%s\t%s\t%.3f\t%s%n", r.name(), p.question().category(),
                        p.candidates().kind(), ndcg(p, ranking), p.question().query()));
                sb.append("  targets: ").append(p.question().targets()).append(" at candidate ranks ");
                for (int i = 0; i < p.spans().size(); i++) {
                    if (SpanNdcg.chunkLevel(List.of(p.spans().get(i)), p.question().targets(), 1) > 0) {
                        sb.append(i + 1).append(' ');
                    }
                }
                sb.append('\n');
                List<SearchHit> ranked = p.candidates().rank(ranking);
                for (int i = 0; i < Math.min(SpanNdcg.K, ranked.size()); i++) {
                    SearchHit h = ranked.get(i);
                    sb.append("  ").append(i + 1).append(' ').append(h.metadata().get(ChunkMetadata.PATH)).append(':')
                            .append(h.metadata().get(ChunkMetadata.START_LINE)).append('-')
                            .append(h.metadata().get(ChunkMetadata.END_LINE)).append(' ')
                            .append(h.metadata().getOrDefault(ChunkMetadata.SYMBOL, "")).append(' ')
                            .append(h.rankSignals()).append('\n');
                }
            }
        }
        log.println("wrote " + ReportWriter.writeText(file, sb.toString()));
    }

    /** The fit report (Markdown): unranked, defaults, fitted in sample, leave-one-language-out, the fitted weights. */
    String report(List<PreparedRepo> repos) {
        RepositoryRanking unranked = RepositoryRanking.off();
        RepositoryRanking defaults = RepositoryRanking.wholeRepository();
        RepositoryRanking zero = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, Map.of());
        RepositoryRanking all = fitBy(repos, zero);
        dump(repos, all);
        Map<String, Double> heldOut = new LinkedHashMap<>();
        Map<String, RepositoryRanking> folds = new LinkedHashMap<>();
        for (PreparedRepo r : repos) {
            if (folds.containsKey(r.language())) {
                continue;
            }
            List<PreparedRepo> train = repos.stream().filter(x -> !x.language().equals(r.language())).toList();
            RepositoryRanking fold = fitBy(train, zero);
            folds.put(r.language(), fold);
            log.printf(Locale.ROOT, "fit: without %s: %.4f on the others%n", r.language(), score(train, fold));
        }
        StringBuilder sb = new StringBuilder("# Ranking-stage fit on semble-dev (NDCG@10, semble's rules)\n\n");
        sb.append("| repository | language | unranked | wholeRepository() | fitted on all (in sample) | leave-one-language-out |\n");
        sb.append("|---|---|---:|---:|---:|---:|\n");
        double su = 0;
        double sd = 0;
        double sa = 0;
        double sh = 0;
        for (PreparedRepo r : repos) {
            double u = repoScore(r, unranked);
            double d = repoScore(r, defaults);
            double a = repoScore(r, all);
            double h = repoScore(r, folds.get(r.language()));
            heldOut.put(r.name(), h);
            su += u;
            sd += d;
            sa += a;
            sh += h;
            sb.append(String.format(Locale.ROOT, "| %s | %s | %.3f | %.3f | %.3f | %.3f |%n", r.name(), r.language(), u,
                    d, a, h));
        }
        int n = repos.size();
        sb.append(String.format(Locale.ROOT, "| **mean** | | **%.3f** | **%.3f** | **%.3f** | **%.3f** |%n%n", su / n,
                sd / n, sa / n, sh / n));
        sb.append("| category | repositories | unranked | wholeRepository() | fitted on all | leave-one-language-out |\n");
        sb.append("|---|---:|---:|---:|---:|---:|\n");
        for (String c : SembleDataset.CATEGORIES) {
            double[] sums = new double[4];
            int count = 0;
            for (PreparedRepo r : repos) {
                double u = repoScore(r, unranked, c);
                if (Double.isNaN(u)) {
                    continue;
                }
                count++;
                sums[0] += u;
                sums[1] += repoScore(r, defaults, c);
                sums[2] += repoScore(r, all, c);
                sums[3] += repoScore(r, folds.get(r.language()), c);
            }
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f | %.3f |%n", c, count, sums[0] / count,
                    sums[1] / count, sums[2] / count, sums[3] / count));
        }
        sb.append('\n');
        sb.append("Weights fitted on all repositories (grid ").append(java.util.Arrays.toString(GRID))
                .append(", ").append(methodDescription()).append(", a weight leaves 0 only for a gain of ")
                .append(options.minGain()).append(", depth ")
                .append(RepositoryRanking.DEFAULT_DEPTH).append("):\n\n");
        all.weights().forEach((k, v) -> {
            if (v != 0) {
                sb.append("- `").append(k).append("` = ").append(v).append(" (folds choosing the same: ")
                        .append(folds.values().stream().filter(f -> f.weights().get(k).equals(v)).count()).append('/')
                        .append(folds.size()).append(")\n");
            }
        });
        sb.append("\nWeights of each leave-one-language-out fold (non-zero only):\n\n");
        folds.forEach((language, fold) -> {
            sb.append("- without ").append(language).append(": ");
            List<String> parts = new ArrayList<>();
            fold.weights().forEach((k, v) -> {
                if (v != 0) {
                    parts.add(k + " " + v);
                }
            });
            sb.append(String.join(", ", parts)).append('\n');
        });
        return sb.toString();
    }
}
