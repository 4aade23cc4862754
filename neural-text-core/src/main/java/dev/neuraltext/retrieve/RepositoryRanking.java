package dev.neuraltext.retrieve;

import static dev.neuraltext.retrieve.RankingSignal.BASE;
import static dev.neuraltext.retrieve.RankingSignal.BM25;
import static dev.neuraltext.retrieve.RankingSignal.BM25_FIRST;
import static dev.neuraltext.retrieve.RankingSignal.COMPAT;
import static dev.neuraltext.retrieve.RankingSignal.DEFINITION;
import static dev.neuraltext.retrieve.RankingSignal.DENSE;
import static dev.neuraltext.retrieve.RankingSignal.DOC;
import static dev.neuraltext.retrieve.RankingSignal.FILE_CANDIDATES;
import static dev.neuraltext.retrieve.RankingSignal.FILE_DENSE;
import static dev.neuraltext.retrieve.RankingSignal.FILE_EVIDENCE;
import static dev.neuraltext.retrieve.RankingSignal.FILE_NAME;
import static dev.neuraltext.retrieve.RankingSignal.FILE_NAME_COVERED;
import static dev.neuraltext.retrieve.RankingSignal.FILE_QUERIED;
import static dev.neuraltext.retrieve.RankingSignal.FOLDER;
import static dev.neuraltext.retrieve.RankingSignal.HEADER;
import static dev.neuraltext.retrieve.RankingSignal.RANK_IN_FILE;
import static dev.neuraltext.retrieve.RankingSignal.SIZE;
import static dev.neuraltext.retrieve.RankingSignal.STUB;
import static dev.neuraltext.retrieve.RankingSignal.TINY;
import static dev.neuraltext.retrieve.RankingSignal.TYPE_CHUNK;
import static dev.neuraltext.retrieve.RankingSignal.TYPE_DEFINITION;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ranking stage for whole-repository questions ("how are custom serializers registered", "JsonReader"): it
 * re-orders the fused candidates by evidence the legs cannot see, each signal a named, weighted feature that
 * {@link SearchHit#rankSignals()} shows. The signals, what each measures, its default weights and where they came from
 * are declared in one table, {@link RankingSignal}: the definition of a name the query mentions, the file's name and
 * folders against the query's words, the other candidates of the same file, the legs' scores, the chunk's shape, the
 * path priors (tests, examples, vendored, generated, compatibility code, stubs, platform twins) and the diversity of
 * files.
 * The query's kind ({@link QueryKind}) selects the weights of the leg, definition, file-name, file-evidence, type-chunk
 * and prose signals (so it also decides how much each leg counts); the other weights are global. A mixed query is a
 * sentence first: its weight of a signal is the natural-language weight plus its own {@code .mixed} one, so that the
 * fewer mixed questions only fit what differs.
 * Weights are plain numbers, fitted offline (the never-shipped {@code neural-text-lab} module's {@code fit-ranking})
 * and validated held out; a user may change any ({@link #withWeights}); {@link #wholeRepository()} documents the
 * fit. The stage looks at the first {@link #depth()} candidates only. Immutable and thread-safe.
 *
 * @param depth   how many fused candidates the stage re-orders (the store is asked for at least this many); 0 = off
 * @param weights the weight of every parameter in {@link #PARAMETERS}
 */
public record RepositoryRanking(int depth, Map<String, Double> weights) {

    /** The kind of a query, which selects the kind-specific weights. */
    public enum QueryKind {
        /** Identifier-shaped ({@code GsonBuilder}, {@code StringUtils isBlank}). */
        SYMBOL,
        /** A sentence without code marks. */
        NATURAL_LANGUAGE,
        /** A sentence naming an identifier ({@code how does JsonReader skip values}). */
        MIXED;

        /**
         * The kind of {@code query}: {@link QueryAnalyzer}'s identifier shape (one token, or a few with a capital or a
         * code mark: {@code GsonBuilder}, {@code Pair apply}), else any code-marked token, else prose. A few plain
         * lower-case words ({@code function composition utility}) are a topic, not a name: natural language.
         */
        public static QueryKind of(String query) {
            QueryAnalyzer.Features f = QueryAnalyzer.features(query);
            // a token with a code mark, or a capital (tokens are the query's words, so its capitals are theirs)
            boolean namesSomething = f.codeShare() > 0 || !query.equals(query.toLowerCase(Locale.ROOT));
            if (f.identifierShaped() && (f.tokens() == 1 || namesSomething)) {
                return SYMBOL;
            }
            return f.codeShare() > 0 ? MIXED : NATURAL_LANGUAGE;
        }

        String key() {
            return switch (this) {
                case SYMBOL -> "symbol";
                case NATURAL_LANGUAGE -> "natural";
                case MIXED -> "mixed";
            };
        }
    }

    /**
     * Every weight's name, from {@link RankingSignal}: {@code <signal>.<kind>} for the kind-specific ones, then the
     * global ones, in the table's order.
     */
    public static final List<String> PARAMETERS;

    static {
        List<String> kindSpecific = new ArrayList<>();
        List<String> global = new ArrayList<>();
        for (RankingSignal s : RankingSignal.values()) {
            (s.scope() == RankingSignal.Scope.PER_KIND ? kindSpecific : global).addAll(s.parameters());
        }
        kindSpecific.addAll(global);
        PARAMETERS = List.copyOf(kindSpecific);
    }

    /** The default depth: enough for a file's other chunks to count, small enough to cost well under a millisecond. */
    public static final int DEFAULT_DEPTH = 50;

    public RepositoryRanking {
        if (depth < 0) {
            throw new IllegalArgumentException("depth must be >= 0, got " + depth);
        }
        Checks.notNull(weights, "weights");
        Map<String, Double> copy = new LinkedHashMap<>();
        for (String name : PARAMETERS) {
            double w = weights.getOrDefault(name, 0.0);
            Checks.finite(w, "weight " + name);
            copy.put(name, w);
        }
        for (String name : weights.keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw new IllegalArgumentException("unknown ranking parameter '" + name + "'; known: " + PARAMETERS);
            }
        }
        weights = Collections.unmodifiableMap(copy);
    }

    /** No ranking stage: the fused order as is. */
    public static RepositoryRanking off() {
        return new RepositoryRanking(0, Map.of());
    }

    /**
     * The weights for whole-repository questions, which {@code neural-text search}, {@code demo} and the MCP server
     * use ({@link RankingSignal} declares them): fitted by steepest ascent (the lab's {@code fit-ranking}: at each step
     * the single move of one weight over a grid that gains most) on the 19 repositories of the semble-dev split (one per language, 380
     * questions; syntax-tree chunks; candidates of the default hybrid search, BM25 and bge-small-en-v1.5-q fused), a
     * weight leaving 0 only for a gain of 0.002 mean NDCG@10 and the weights of evidence (definition, file name, file
     * queried, folder, file candidates, the legs) never negative. Held out (leave-one-language-out) the same procedure
     * scores 0.853 against 0.744 unranked (0.878 in sample).
     * The file a symbol query names 2.0, a sentence names 0.05; for sentences, the share of the file name's words the
     * query has 0.5 and log2 of the file's candidates 0.1; BM25's relative score 0.5 more for a sentence naming an
     * identifier; prose -3 for sentences (an identifier found only in the documentation still comes first); an older
     * version beside a newer one -3 ({@code compat}); declaration stubs, a C header beside its implementation among
     * them, -0.2; Windows-only twins -3; each better chunk of the same file above it -3 (in effect a file competes by
     * its best chunk, one chunk per file before a second one).
     */
    public static RepositoryRanking wholeRepository() {
        return DEFAULTS;
    }

    /**
     * The default of {@link HybridCaseRetriever}: {@link #off()}, because a retriever may hold any collection.
     * {@link #wholeRepository()} is for an index of a repository's files (what the command line and the MCP server
     * build); on the chunk-level dev datasets, where the answer is one method among many of the same file, its
     * one-chunk-per-file diversity costs MRR@10 (figures in docs/benchmarks.md).
     */
    public static RepositoryRanking defaults() {
        return off();
    }

    private static final RepositoryRanking DEFAULTS = new RepositoryRanking(DEFAULT_DEPTH, defaultWeights());

    /** Every parameter's default weight, as {@link RankingSignal} declares it. */
    private static Map<String, Double> defaultWeights() {
        Map<String, Double> w = new LinkedHashMap<>();
        for (RankingSignal s : RankingSignal.values()) {
            if (s.scope() == RankingSignal.Scope.PER_KIND) {
                for (QueryKind k : QueryKind.values()) {
                    w.put(s.id() + "." + k.key(), s.defaultWeight(k));
                }
            } else if (s.scope() != RankingSignal.Scope.FIXED) {
                w.put(s.id(), s.defaultWeight(QueryKind.SYMBOL));
            }
        }
        return w;
    }

    /**
     * The weight {@code signal} has for a query of {@code kind}: its global weight, or for a kind-specific signal its
     * {@code signal.kind} weight, to which a mixed query adds the natural-language one (a sentence first).
     */
    public double weightOf(String signal, QueryKind kind) {
        Double perKind = weights.get(signal + "." + kind.key());
        if (perKind == null) {
            Double global = weights.get(signal);
            if (global == null) {
                throw new IllegalArgumentException("unknown ranking signal '" + signal + "'; known: " + PARAMETERS);
            }
            return global;
        }
        return kind == QueryKind.MIXED ? perKind + weights.get(signal + "." + QueryKind.NATURAL_LANGUAGE.key())
                : perKind;
    }

    /**
     * A copy with the weights of {@code changed} (names of {@link #PARAMETERS}) set, the others kept: to tune the
     * defaults for a collection, {@code wholeRepository().withWeights(Map.of("doc.natural", -1.0))}.
     *
     * @throws IllegalArgumentException naming an unknown parameter or a weight that is not finite
     */
    public RepositoryRanking withWeights(Map<String, Double> changed) {
        Map<String, Double> w = new LinkedHashMap<>(weights);
        w.putAll(Checks.notNull(changed, "changed"));
        return new RepositoryRanking(depth, w);
    }

    /** Whether the stage changes nothing (depth 0, or every weight 0). */
    public boolean isOff() {
        return depth == 0 || weights.values().stream().allMatch(w -> w == 0);
    }

    /** {@code hits} (best first) re-ordered for {@code query}; the hits past {@link #depth()} follow unchanged. */
    public List<SearchHit> rank(String query, List<SearchHit> hits) {
        if (isOff() || hits.size() < 2) {
            return hits;
        }
        return prepare(query, hits).rank(this);
    }

    /**
     * The features of the first {@link #depth()} hits for {@code query}, computed once so that many weightings can be
     * tried on them (what fitting does; package-private: the product has no fitting API).
     */
    Candidates prepare(String query, List<SearchHit> hits) {
        return new Candidates(query, hits.subList(0, Math.min(Math.max(depth, 1), hits.size())),
                hits.subList(Math.min(Math.max(depth, 1), hits.size()), hits.size()));
    }

    /**
     * One query's candidates with their features ({@link RankingSignal}, by slot); {@link #rank} orders them under any
     * weights. Immutable.
     */
    static final class Candidates {

        /** A chunk of at most this many lines is {@code tiny} (a one-line declaration, a field, an alias). */
        static final int TINY_LINES = 2;
        private static final int WIDTH = RankingSignal.BY_SLOT.length;
        /** The slot of each of {@link PathPriors#NAMES}, in that order. */
        private static final int[] PRIOR_SLOTS = Arrays.stream(PathPriors.NAMES)
                .mapToInt(name -> RankingSignal.byId(name).slot()).toArray();

        private final QueryKind kind;
        private final List<SearchHit> hits;
        private final List<SearchHit> rest;
        private final double[][] features;
        private final int[] file;

        Candidates(String query, List<SearchHit> hits, List<SearchHit> rest) {
            this.kind = QueryKind.of(query);
            this.hits = List.copyOf(hits);
            this.rest = List.copyOf(rest);
            QueryTerms terms = QueryTerms.of(query);
            int n = hits.size();
            features = new double[n][WIDTH];
            file = new int[n];
            Map<String, Integer> files = new HashMap<>();
            Map<String, double[]> pathFeatures = new HashMap<>(); // candidates share files: compute once per path
            double top = n == 0 ? 1 : Math.max(1e-12, hits.get(0).fusedScore());
            LegScoreRange range = LegScoreRange.of(hits);
            double bm25Top = range.bm25Top();
            double denseTop = range.denseTop();
            double denseLow = range.denseLow();
            for (int i = 0; i < n; i++) {
                SearchHit h = hits.get(i);
                String path = h.metadata().getOrDefault(ChunkMetadata.PATH, "");
                file[i] = files.computeIfAbsent(path, p -> files.size());
                double[] f = features[i];
                f[BASE.slot()] = h.fusedScore() / top;
                String symbolType = h.metadata().getOrDefault(ChunkMetadata.SYMBOL_TYPE, "");
                boolean prose = ChunkMetadata.TYPE_DOC.equals(h.metadata().get(ChunkMetadata.TYPE));
                if (!prose && !ChunkMetadata.SYMBOL_TYPE_TEXT.equals(symbolType)
                        && (terms.namesSymbol(h.metadata().get(ChunkMetadata.SYMBOL))
                        || reExports(terms, h.metadata().get(ChunkMetadata.EXPORTS)))) {
                    f[DEFINITION.slot()] = 1;
                }
                double[] byPath = pathFeatures.computeIfAbsent(path, p -> pathFeatures(terms, p));
                f[FILE_NAME.slot()] = byPath[0];
                f[FILE_QUERIED.slot()] = byPath[1];
                f[FOLDER.slot()] = byPath[2];
                f[FILE_NAME_COVERED.slot()] = byPath[3];
                f[DOC.slot()] = prose ? 1 : 0;
                f[TYPE_CHUNK.slot()] = ChunkMetadata.SYMBOL_TYPE_TYPE.equals(symbolType)
                        || ChunkMetadata.SYMBOL_TYPE_MODULE.equals(symbolType) ? 1 : 0;
                f[HEADER.slot()] = ChunkMetadata.SYMBOL_TYPE_HEADER.equals(symbolType) ? 1 : 0;
                f[TYPE_DEFINITION.slot()] = f[DEFINITION.slot()] * f[TYPE_CHUNK.slot()];
                LegScore b = h.legs().get(Leg.BM25);
                f[BM25.slot()] = b == null || bm25Top <= 0 ? 0 : b.score() / bm25Top;
                f[BM25_FIRST.slot()] = b != null && b.rank() == 1 ? 1 : 0;
                LegScore d = h.legs().get(Leg.DENSE);
                f[DENSE.slot()] = d == null ? 0 : denseTop > denseLow ? (d.score() - denseLow) / (denseTop - denseLow) : 1;
                int lines = lines(h.metadata());
                f[TINY.slot()] = lines <= TINY_LINES ? 1 : 0;
                f[SIZE.slot()] = lines == Integer.MAX_VALUE ? 0 : Math.min(1, Math.log10(Math.max(1, lines)) / 3);
                for (int p = 0; p < PRIOR_SLOTS.length; p++) {
                    f[PRIOR_SLOTS[p]] = byPath[4 + p];
                }
            }
            markTwins(terms, files);
            if (PathPriors.asksForCompat(terms.words())) {
                for (double[] f : features) {
                    f[COMPAT.slot()] = 0; // the question is about the compatibility code: it is no longer a twin to bury
                }
            }
            for (int i = 0; i < n; i++) {
                double first = 0;
                double second = 0;
                double dense = 0;
                int count = 1;
                int above = 0;
                for (int j = 0; j < n; j++) {
                    if (j != i && file[j] == file[i]) {
                        double b = features[j][BASE.slot()];
                        if (b > first) {
                            second = first;
                            first = b;
                        } else if (b > second) {
                            second = b;
                        }
                        dense = Math.max(dense, features[j][DENSE.slot()]);
                        count++;
                        above += j < i ? 1 : 0;
                    }
                }
                features[i][FILE_EVIDENCE.slot()] = first + second;
                features[i][FILE_DENSE.slot()] = dense;
                features[i][FILE_CANDIDATES.slot()] = Math.log(1 + count) / Math.log(2);
                features[i][RANK_IN_FILE.slot()] = Math.min(above, MAX_RANK_IN_FILE);
            }
        }

        /** Adds {@link TwinFiles} to the {@code stub} and {@code compat} priors: twins of another candidate's file. */
        private void markTwins(QueryTerms terms, Map<String, Integer> files) {
            String[] byIndex = new String[files.size()];
            files.forEach((path, index) -> byIndex[index] = path);
            boolean[][] twins = TwinFiles.of(terms.words(), Arrays.asList(byIndex));
            for (int i = 0; i < features.length; i++) {
                if (twins[file[i]][0]) {
                    features[i][STUB.slot()] = 1;
                }
                if (twins[file[i]][1]) {
                    features[i][COMPAT.slot()] = 1;
                }
            }
        }

        /** Whether a header re-exports ({@link ChunkMetadata#EXPORTS}) a name the query mentions. */
        private static boolean reExports(QueryTerms terms, String exports) {
            if (exports == null || exports.isEmpty()) {
                return false;
            }
            for (String name : exports.split(" ")) {
                if (terms.namesSymbol(name)) {
                    return true;
                }
            }
            return false;
        }

        /** {@code rankInFile} counts at most this many better chunks of the same file. */
        static final int MAX_RANK_IN_FILE = 10;

        /** A path's features: file name, file queried, folder, file name covered, then the path priors. */
        private static double[] pathFeatures(QueryTerms terms, String path) {
            double[] priors = PathPriors.of(path);
            double[] out = new double[4 + priors.length];
            out[0] = terms.shareInFileName(path);
            out[1] = terms.fileNaming(path);
            out[2] = terms.shareInFolders(path);
            out[3] = terms.fileNameCovered(path);
            System.arraycopy(priors, 0, out, 4, priors.length);
            return out;
        }

        private static int lines(Map<String, String> metadata) {
            try {
                return Integer.parseInt(metadata.getOrDefault(ChunkMetadata.END_LINE, "0"))
                        - Integer.parseInt(metadata.getOrDefault(ChunkMetadata.START_LINE, "0")) + 1;
            } catch (NumberFormatException e) {
                return Integer.MAX_VALUE; // no line span: not a tiny chunk
            }
        }

        /** The query's kind. */
        QueryKind kind() {
            return kind;
        }

        /** The number of candidates (the hits within the depth). */
        int size() {
            return hits.size();
        }

        /** The candidates ordered under {@code ranking}'s weights, each carrying its signals; the rest follow. */
        List<SearchHit> rank(RepositoryRanking ranking) {
            int n = hits.size();
            double[] w = weightsFor(ranking);
            int[] order = new int[n];
            double[] at = new double[n];
            select(ranking, w, order, at);
            List<SearchHit> out = new ArrayList<>(n + rest.size());
            for (int r = 0; r < n; r++) {
                // the score thresholds act on stays on the fused scale and never rises down the list: a hit's own
                // score, capped by the one above it
                double shown = hits.get(order[r]).score();
                if (!out.isEmpty()) {
                    shown = Math.min(shown, out.get(out.size() - 1).score());
                }
                out.add(hits.get(order[r]).withScore(shown).withRankSignals(signals(order[r], w, at[r])));
            }
            out.addAll(rest);
            return out;
        }

        /**
         * The order of the candidates under {@code ranking} (indices into the hits as given, best first), without
         * building hits: what fitting evaluates many times.
         */
        int[] order(RepositoryRanking ranking) {
            int[] order = new int[hits.size()];
            select(ranking, weightsFor(ranking), order, new double[hits.size()]);
            return order;
        }

        /**
         * The value each of {@link #PARAMETERS} multiplies for candidate {@code i} (in that order): its feature for the
         * global parameters and for this query's kind, 0 for the other kinds' and for {@code diversity}. With
         * {@link #base(int)}, what a learned linear model of the ranking score is fitted on.
         */
        double[] parameterValues(int i) {
            double[] out = new double[PARAMETERS.size()];
            for (int f = 1; f < WIDTH; f++) {
                String name = RankingSignal.BY_SLOT[f].id();
                int at = PARAMETERS.indexOf(name + "." + kind.key());
                if (at < 0) {
                    at = PARAMETERS.indexOf(name);
                }
                out[at] = features[i][f];
                if (kind == QueryKind.MIXED && at != PARAMETERS.indexOf(name)) {
                    out[PARAMETERS.indexOf(name + ".natural")] = features[i][f]; // a sentence first
                }
            }
            return out;
        }

        /** Candidate {@code i}'s {@code base} feature: its fused score relative to the best candidate's (weight 1). */
        double base(int i) {
            return features[i][BASE.slot()];
        }

        /** The candidate hits as given (best fused first). */
        List<SearchHit> hits() {
            return hits;
        }

        /** Greedy selection: linear score, less the diversity weight per chunk of the same file already placed. */
        private void select(RepositoryRanking ranking, double[] w, int[] order, double[] at) {
            int n = hits.size();
            double[] score = new double[n];
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int f = 0; f < WIDTH; f++) {
                    s += w[f] * features[i][f];
                }
                score[i] = s;
            }
            double diversity = ranking.weights().get(RankingSignal.DIVERSITY.id());
            boolean[] placed = new boolean[n];
            int[] perFile = new int[n];
            for (int step = 0; step < n; step++) {
                int best = -1;
                double bestScore = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    if (!placed[i]) {
                        double s = score[i] - diversity * perFile[file[i]] * (1 - features[i][FILE_QUERIED.slot()]);
                        if (s > bestScore) {
                            best = i;
                            bestScore = s;
                        }
                    }
                }
                placed[best] = true;
                perFile[file[best]]++;
                order[step] = best;
                at[step] = bestScore;
            }
        }

        private Map<String, Double> signals(int i, double[] w, double score) {
            Map<String, Double> s = new LinkedHashMap<>();
            s.put("kind." + kind.key(), 1.0);
            s.put(RankingSignal.BASE.id(), round(features[i][BASE.slot()]));
            for (int f = 1; f < WIDTH; f++) {
                if (features[i][f] != 0 && w[f] != 0) {
                    s.put(RankingSignal.BY_SLOT[f].id(), round(features[i][f]));
                }
            }
            s.put("score", round(score));
            return s;
        }

        /** The weight of every feature for this query: its kind's weight when the signal is per kind, else the global one. */
        private double[] weightsFor(RepositoryRanking ranking) {
            double[] w = new double[WIDTH];
            w[BASE.slot()] = 1;
            for (int f = 1; f < WIDTH; f++) {
                w[f] = ranking.weightOf(RankingSignal.BY_SLOT[f].id(), kind);
            }
            return w;
        }

        private static double round(double v) {
            return Math.round(v * 1e4) / 1e4;
        }
    }
}
