package dev.neuraltext.retrieve;

import dev.neuraltext.retrieve.RepositoryRanking.QueryKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The signals of {@link RepositoryRanking}, each declared once: its name (the key in
 * {@link dev.neuraltext.search.SearchHit#rankSignals()} and in the weights), what it measures, whether its weight
 * depends on the query's kind, its default weights ({@link RepositoryRanking#wholeRepository()}) and where they came
 * from. The ranking's features, its weights table ({@link RepositoryRanking#PARAMETERS}), the signals it reports and the
 * lab's fit all read this table; adding a signal is a constant here and the line of
 * {@code RepositoryRanking.Candidates} that computes its value.
 *
 * <p>The constants are listed kind-specific first, then global, which is the order of
 * {@link RepositoryRanking#PARAMETERS}. A signal's place in the ranking score's sum (and in {@code rankSignals()}) is
 * its slot, declared with it: scores are summed in slot order, the order the weights were fitted under, so that they
 * stay bit-identical. Immutable.
 */
public enum RankingSignal {

    /** The hit's fused score relative to the best candidate's; its weight is always 1 (the unit of the others). */
    BASE("base", 0, Scope.FIXED, false, "the hit's fused score relative to the best candidate's", unit(),
            Origins.FIXED_UNIT),

    DEFINITION("definition", 1, Scope.PER_KIND, true, "the chunk defines a name the query mentions (its symbol's last "
            + "segment equals a query identifier as the query spells it, or adjacent query words joined; or a header "
            + "re-exports it), not a mere mention", perKind(0, 0, 0), Origins.FIT_AT_ZERO),
    TYPE_DEFINITION("typeDefinition", 9, Scope.PER_KIND, true, "definition, and the chunk is a whole type",
            perKind(0, 0, 0), Origins.FIT_AT_ZERO),
    FILE_NAME("fileName", 2, Scope.PER_KIND, true, "the share of the query's words found in the file's name (words "
            + "match by stem: streaming and streams)", perKind(0, 0, 0), Origins.FIT_AT_ZERO),
    FILE_QUERIED("fileQueried", 3, Scope.PER_KIND, true, "the file's name before its first dot is a name the query "
            + "mentions: 1 when that is the whole name less the extension (SqlMapper.cs), 0.5 when more parts follow "
            + "(SqlMapper.Settings.cs)", perKind(2.0, 0.05, 0), Origins.FITTED),
    FILE_EVIDENCE("fileEvidence", 4, Scope.PER_KIND, true, "the two best relative scores of the other candidates "
            + "from the same file (coherence: a file with several matching chunks lifts its best one)",
            perKind(0, 0, 0), Origins.FIT_AT_ZERO),
    FILE_DENSE("fileDense", 13, Scope.PER_KIND, true, "the best dense similarity among the other candidates of the "
            + "same file", perKind(0, 0, 0), Origins.FIT_AT_ZERO),
    TYPE_CHUNK("typeChunk", 7, Scope.PER_KIND, false, "the chunk is a whole type or module", perKind(0, 0, 0),
            Origins.FIT_AT_ZERO),
    BM25("bm25", 10, Scope.PER_KIND, true, "the hit's BM25 score relative to the best candidate's",
            perKind(0, 0, 0.5), Origins.FITTED),
    BM25_FIRST("bm25First", 15, Scope.PER_KIND, true, "BM25 ranked the hit first", perKind(0, 0, 0),
            Origins.FIT_AT_ZERO),
    DENSE("dense", 11, Scope.PER_KIND, true, "the hit's dense similarity scaled between the lowest and the highest "
            + "candidate's", perKind(0, 0, 0), Origins.FIT_AT_ZERO),
    DOC("doc", 6, Scope.PER_KIND, false, "the chunk is prose (documentation)", perKind(0, -3.0, 0), Origins.FITTED),
    FILE_NAME_COVERED("fileNameCovered", 16, Scope.PER_KIND, true, "the share of the file name's words the query has "
            + "(1: the name says nothing the query does not; UpsertStatement.kt over BatchUpsertStatement.kt for "
            + "\"upsert statement\"), words that only say the file holds helpers (Utils, Helper, Support, Impl) left "
            + "out", perKind(0, 0.5, 0), Origins.FITTED),
    FILE_CANDIDATES("fileCandidates", 17, Scope.PER_KIND, true, "log2 of 1 + the number of candidates from the file",
            perKind(0, 0.1, 0), Origins.FITTED),

    FOLDER("folder", 5, Scope.GLOBAL, true, "the share of the query's words found in the file's folders", global(0),
            Origins.FIT_AT_ZERO),
    HEADER("header", 8, Scope.GLOBAL, false, "the chunk is a file's imports and top-level statements", global(0),
            Origins.FIT_AT_ZERO),
    TINY("tiny", 12, Scope.GLOBAL, false, "the chunk has at most " + RepositoryRanking.Candidates.TINY_LINES
            + " lines", global(0), Origins.FIT_AT_ZERO),
    SIZE("size", 14, Scope.GLOBAL, false, "log10 of the chunk's lines, over 3, at most 1", global(0),
            Origins.FIT_AT_ZERO),
    TEST("test", 19, Scope.GLOBAL, false, "path prior: a test file", global(0), Origins.FIT_AT_ZERO),
    EXAMPLE("example", 20, Scope.GLOBAL, false, "path prior: an example", global(0), Origins.FIT_AT_ZERO),
    VENDORED("vendored", 21, Scope.GLOBAL, false, "path prior: vendored third-party code", global(0),
            Origins.FIT_AT_ZERO),
    GENERATED("generated", 22, Scope.GLOBAL, false, "path prior: generated code", global(0), Origins.FIT_AT_ZERO),
    COMPAT("compat", 23, Scope.GLOBAL, false, "path prior: compatibility code, also an older version folder beside a "
            + "newer candidate's (TwinFiles); not for a question about compatibility or legacy code", global(-3.0),
            Origins.FITTED),
    STUB("stub", 24, Scope.GLOBAL, false, "path prior: declaration files, also a C/C++ header whose implementation is "
            + "a candidate", global(-0.2), Origins.FITTED),
    BARREL("barrel", 25, Scope.GLOBAL, false, "path prior: a package index file", global(0), Origins.FIT_AT_ZERO),
    PLATFORM("platform", 26, Scope.GLOBAL, false, "path prior: a Windows-only twin of a POSIX implementation",
            global(-3.0), Origins.FITTED),
    RANK_IN_FILE("rankInFile", 18, Scope.GLOBAL, false, "how many chunks of the same file the fused order puts above "
            + "this one (at most " + RepositoryRanking.Candidates.MAX_RANK_IN_FILE + "), so that a file competes by "
            + "its best chunk", global(-3.0), Origins.FITTED),
    /** Not a feature of the score: subtracted as candidates are placed (see {@link Scope#PLACEMENT}). */
    DIVERSITY("diversity", -1, Scope.PLACEMENT, false, "subtracted once per chunk of the same file already placed "
            + "above, times 1 - fileQueried: not at all for the file the query names, half for a file only its name's "
            + "first part names", global(0), Origins.FIT_AT_ZERO);

    /** How a signal's weight is chosen. */
    public enum Scope {
        /** Always weight 1; not a parameter ({@link #BASE}). */
        FIXED,
        /** One weight per {@link QueryKind}: {@code <name>.symbol}, {@code .natural}, {@code .mixed}. */
        PER_KIND,
        /** One weight for every query: {@code <name>}. */
        GLOBAL,
        /** One weight for every query, applied while the candidates are placed in order, not summed in the score. */
        PLACEMENT
    }

    /** Where default weights came from (a holder class: the constants are built before the enum's static fields). */
    private static final class Origins {
        /** The weights fitted for {@link RepositoryRanking#wholeRepository()}: see that method for the fit. */
        static final String FITTED = "fitted on semble-dev by steepest ascent (see wholeRepository())";
        /** A weight the same fit left at 0. */
        static final String FIT_AT_ZERO = "left at 0 by the same fit (no move gained the 0.002 mean NDCG@10 a "
                + "weight must gain to leave 0)";
        static final String FIXED_UNIT = "fixed: the unit the other weights are relative to";
    }

    /** Default weights of a {@link Scope#PER_KIND} signal: symbol, natural language, mixed (added to natural). */
    private static double[] perKind(double symbol, double natural, double mixed) {
        return new double[] {symbol, natural, mixed};
    }

    /** The default weight of a {@link Scope#GLOBAL} or {@link Scope#PLACEMENT} signal. */
    private static double[] global(double weight) {
        return new double[] {weight, weight, weight};
    }

    /** {@link #BASE}'s fixed weight 1. */
    private static double[] unit() {
        return new double[] {1, 1, 1};
    }

    private final String id;
    private final int slot;
    private final Scope scope;
    private final boolean evidence;
    private final String measures;
    private final double[] defaults;
    private final String origin;

    RankingSignal(String id, int slot, Scope scope, boolean evidence, String measures, double[] defaults,
            String origin) {
        this.id = id;
        this.slot = slot;
        this.scope = scope;
        this.evidence = evidence;
        this.measures = measures;
        this.defaults = defaults;
        this.origin = origin;
    }

    /** The name: the key in the weights and in {@code rankSignals()}. */
    public String id() {
        return id;
    }

    /** What the signal measures (its value, mostly in [0, 1]). */
    public String measures() {
        return measures;
    }

    /** How its weight is chosen. */
    public Scope scope() {
        return scope;
    }

    /**
     * Whether it is evidence for a candidate (it defines the name, its file is named, a leg ranks it high): the fit
     * keeps such weights non-negative, a negative weight on evidence being a fit to quirks of the training questions.
     */
    public boolean evidence() {
        return evidence;
    }

    /** Where its default weights came from. */
    public String origin() {
        return origin;
    }

    /** Its place in the score's sum and in {@code rankSignals()}; -1 for {@link Scope#PLACEMENT}. */
    int slot() {
        return slot;
    }

    /** Its parameter names in {@link RepositoryRanking#PARAMETERS} (none for {@link Scope#FIXED}). */
    public List<String> parameters() {
        return switch (scope) {
            case FIXED -> List.of();
            case PER_KIND -> Arrays.stream(QueryKind.values()).map(k -> id + "." + k.key()).toList();
            case GLOBAL, PLACEMENT -> List.of(id);
        };
    }

    /**
     * The default weight of parameter {@code kind} ({@link Scope#PER_KIND}; for {@link QueryKind#MIXED} its own
     * parameter, which a mixed query adds to the natural-language one), or of the signal (the others; {@code kind}
     * ignored).
     */
    public double defaultWeight(QueryKind kind) {
        return defaults[kind.ordinal()];
    }

    /** The signal named {@code id}. */
    public static RankingSignal byId(String id) {
        for (RankingSignal s : values()) {
            if (s.id.equals(id)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown ranking signal '" + id + "'; known: "
                + Arrays.stream(values()).map(RankingSignal::id).toList());
    }

    /** The signals summed in the score, in slot order ({@link #BASE} first). */
    static final RankingSignal[] BY_SLOT = bySlot();

    private static RankingSignal[] bySlot() {
        List<RankingSignal> scored = new ArrayList<>();
        for (RankingSignal s : values()) {
            if (s.scope != Scope.PLACEMENT) {
                scored.add(s);
            }
        }
        RankingSignal[] out = new RankingSignal[scored.size()];
        for (RankingSignal s : scored) {
            if (s.slot < 0 || s.slot >= out.length || out[s.slot] != null) {
                throw new IllegalStateException("ranking signal " + s + " has slot " + s.slot + ": slots must be 0.."
                        + (out.length - 1) + ", each once");
            }
            out[s.slot] = s;
        }
        return out;
    }
}
