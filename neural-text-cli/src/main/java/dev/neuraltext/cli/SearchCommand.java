package dev.neuraltext.cli;

import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.cli.results.FileResults;
import dev.neuraltext.cli.results.HitFormatter;
import dev.neuraltext.cli.results.PackedFormatter;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.retrieve.FileGroups;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.search.AnswerPacker;
import dev.neuraltext.search.PackedAnswer;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.DenseCoverage;
import dev.neuraltext.store.InMemoryCaseStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code neural-text search "<query>"}: ranked hits with path:line, symbol, snippet, fused score and each leg's rank. */
@Command(name = "search", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Search an index built by `neural-text index`.",
            "Each hit shows path:line, symbol, a snippet, the score and each leg's rank and raw score; the last line "
                    + "says how many results scored above the relevance floor."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:results printed (possibly none)", "1:failure",
            "2:bad input (empty query, --limit 0, malformed filter, a leg the index cannot run)",
            "3:no usable index (missing, unreadable, built with another model)"})
final class SearchCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "QUERY", description = "Identifiers (ChatModel) or plain English.")
    String query;

    @Option(names = "--index", paramLabel = "DIR", description = "Index folder (default: ./.neural-text).")
    Path index;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "10",
            description = "Hits to return at least (default: ${DEFAULT-VALUE}); more when scores stay close.")
    int limit;

    @Option(names = "--filter", paramLabel = "EXPR",
            description = "Metadata filter, e.g. \"symbolType == 'method' and path ~ 'fusion'\".")
    String filter;

    @Option(names = "--legs", paramLabel = "LEGS", split = ",",
            description = "Legs to run: bm25, dense, sparse (default: every leg the index has).")
    List<String> legs;

    @Option(names = "--no-extend", description = "Return at most --limit hits: no adaptive extension.")
    boolean noExtend;

    @Option(names = "--model", paramLabel = "<preset>", description = DenseModel.MODEL_HELP)
    String model;

    @Option(names = "--no-dense", description = "Do not load the dense model: BM25 only, faster start.")
    boolean noDense;

    @Option(names = "--group-by", paramLabel = "chunk|file", defaultValue = "chunk",
            description = "chunk (default): ranked chunks; file: --limit files ranked by their evidence, each with its "
                    + "best spans.")
    String groupBy;

    @Option(names = "--no-ranking", description = "The fused order as is: no ranking stage (by default the first 50 "
            + "candidates are re-ordered for whole-repository questions: definitions, file names, code above prose, "
            + "one chunk per file first).")
    boolean noRanking;

    @Option(names = "--budget", paramLabel = "TOKENS",
            description = "Pack the answer into about TOKENS tokens (characters / 4; at least 100): the best hit of "
                    + "each file first, long definitions trimmed to their doc comment, signature and the lines that "
                    + "match, elisions marked with their lines; the last line says what the rest would cost. "
                    + "Default: every hit with a short snippet.")
    Integer budget;

    @Option(names = "--json", description = "Print the response as JSON.")
    boolean json;

    @Option(names = "--qdrant", paramLabel = "HOST:PORT",
            description = "Search a Qdrant collection filled by `neural-text index --qdrant` instead of the index folder.")
    String qdrant;

    @Option(names = "--collection", paramLabel = "NAME", defaultValue = "neural-text",
            description = "Qdrant collection (default: ${DEFAULT-VALUE}).")
    String collection;

    @Override
    public Integer call() {
        return Cli.guard("search", () -> {
            Parsed p = parse(query, limit, filter, legs);
            boolean byFile = parseGroupBy(groupBy);
            AnswerPacker packer = packer(budget, byFile);
            Path dir = index != null ? index : Path.of(IndexSession.DEFAULT_INDEX_DIR);
            boolean wantDense = !noDense && (p.legs().isEmpty() || p.legs().contains(Leg.DENSE));
            IndexSession.QdrantTarget target = IndexSession.QdrantTarget.parse(qdrant, collection);
            try (IndexSession session = target != null ? IndexSession.openQdrant(target, wantDense,
                    DenseModel.checkPreset(model), System.err)
                    : IndexSession.open(dir.toAbsolutePath().normalize(), wantDense,
                            DenseModel.checkPreset(model), System.err)) {
                String label = target != null ? "qdrant://" + target.label() : dir.toString();
                if (noRanking) {
                    session.rankWith(RepositoryRanking.off());
                }
                if (byFile) {
                    runByFile(session, p, json, label);
                } else {
                    run(session, p, !noExtend, json, label, packer);
                }
            }
            return 0;
        });
    }

    /** A validated request. */
    record Parsed(String query, int limit, PayloadFilter filter, Set<Leg> legs) {
    }

    static Parsed parse(String query, int limit, String filter, List<String> legs) {
        if (query == null || query.isBlank()) {
            throw new CliException(CliException.USAGE, "the query is empty: say what to look for, e.g. "
                    + "neural-text search \"how are scores fused\"");
        }
        if (limit < 1) {
            throw new CliException(CliException.USAGE, "--limit must be at least 1, got " + limit);
        }
        PayloadFilter f = PayloadFilter.all();
        if (filter != null && !filter.isBlank()) {
            try {
                f = PayloadFilter.parse(filter);
            } catch (IllegalArgumentException e) {
                throw new CliException(CliException.USAGE, "malformed --filter: " + e.getMessage() + "\n  " + filter
                        + "\n  " + caret(filter, e.getMessage()));
            }
        }
        Set<Leg> set = EnumSet.noneOf(Leg.class);
        if (legs != null) {
            for (String l : legs) {
                try {
                    set.add(Leg.fromLabel(l));
                } catch (IllegalArgumentException e) {
                    throw new CliException(CliException.USAGE, "--legs: " + e.getMessage());
                }
            }
        }
        return new Parsed(query.strip(), limit, f, set);
    }

    /** A caret under the column the filter parser names ("column 9: ..."), or "". */
    private static String caret(String filter, String message) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("column (\\d+)").matcher(message == null ? "" : message);
        if (!m.find()) {
            return "";
        }
        int col = Integer.parseInt(m.group(1));
        return " ".repeat(Math.max(0, Math.min(col - 1, filter.length()))) + "^";
    }

    /** Fails with exit 2, naming the legs that can run, when a requested leg cannot run on this index in this run. */
    static void requireRunnable(IndexSession session, Set<Leg> requested, String indexLabel) {
        Set<Leg> withData = session.store.legsWithData();
        Set<Leg> runnable = EnumSet.noneOf(Leg.class);
        for (Leg l : withData) {
            // the CLI has no sparse encoder; the dense leg needs the model as well as the vectors
            if (l == Leg.BM25 || (l == Leg.DENSE && session.embedder != null)) {
                runnable.add(l);
            }
        }
        List<String> problems = new ArrayList<>();
        for (Leg l : requested) {
            if (runnable.contains(l)) {
                continue;
            }
            if (!withData.contains(l)) {
                problems.add(l.label() + " (the index has no " + l.label() + " data)");
            } else if (l == Leg.DENSE) {
                problems.add("dense (the model is not loaded in this run: drop --no-dense)");
            } else {
                problems.add(l.label() + " (the command line has no encoder for it)");
            }
        }
        if (!problems.isEmpty()) {
            List<String> have = runnable.stream().map(Leg::label).toList();
            throw new CliException(CliException.USAGE, "--legs: cannot run " + String.join(", ", problems) + " on "
                    + indexLabel + "; legs available: " + (have.isEmpty() ? "none" : String.join(", ", have)));
        }
    }

    /** {@code --group-by}: true for "file", false for "chunk"; anything else is a usage error naming the value. */
    static boolean parseGroupBy(String value) {
        if ("file".equals(value)) {
            return true;
        }
        if ("chunk".equals(value)) {
            return false;
        }
        throw new CliException(CliException.USAGE, "--group-by must be chunk or file, got '" + value + "'");
    }

    /** {@code search --group-by file}: {@link FileResults}' files, as text or JSON. */
    static void runByFile(IndexSession session, Parsed p, boolean json, String indexLabel) {
        if (!p.legs().isEmpty()) {
            requireRunnable(session, p.legs(), indexLabel);
        }
        SearchRequest request = FileResults.request(SearchRequest.builder(p.query()).limit(p.limit())
                .filter(p.filter()).legs(p.legs()).explain(true).build());
        SearchResponse response = session.retriever.search(request);
        List<FileGroups.FileHit> files = FileResults.group(response, p.limit());
        if (json) {
            HitFormatter.printJson(System.out, FileResults.json(p.query(), indexLabel, files));
        } else {
            FileResults.print(System.out, p.query(), files, response);
        }
    }

    /** {@code --budget}: null when absent; a usage error naming the value when too small or with files. */
    static AnswerPacker packer(Integer budget, boolean byFile) {
        if (budget == null) {
            return null;
        }
        if (byFile) {
            throw new CliException(CliException.USAGE, "--budget packs chunks; it does not combine with --group-by "
                    + "file (which already answers with each file's best spans): drop one of them");
        }
        try {
            return AnswerPacker.ofBudget(budget);
        } catch (IllegalArgumentException e) {
            throw new CliException(CliException.USAGE, "--budget: " + e.getMessage());
        }
    }

    static void run(IndexSession session, Parsed p, boolean extend, boolean json, String indexLabel,
            AnswerPacker packer) {
        List<String> notes = new ArrayList<>();
        Set<Leg> legs = p.legs();
        if (!legs.isEmpty()) {
            requireRunnable(session, legs, indexLabel);
        }
        SearchRequest request = SearchRequest.builder(p.query()).limit(p.limit()).filter(p.filter()).legs(legs)
                .adaptive(extend).explain(true).build();
        SearchResponse response = session.retriever.search(request);
        if (!legs.isEmpty() && !response.legsRun().containsAll(legs) && notes.isEmpty()) {
            notes.add("some requested legs have no data in this index; ran " + HitFormatter.legsLabel(response));
        }
        if (session.store instanceof InMemoryCaseStore local) {
            DenseCoverage coverage = local.denseCoverage();
            // a BM25-only index is no news; an index with some vectors, or a run with the model, is
            if (coverage.lacking() > 0 && (coverage.partial() || session.embedder != null)) {
                notes.add("the dense leg covers only " + coverage.describe() + " of this index: the other "
                        + coverage.lacking() + " lack dense vectors (indexed without the model, or an `index` run is"
                        + " still embedding them or was stopped); `neural-text index <folder>` with the model embeds"
                        + " them");
            }
        }
        if (packer != null) {
            PackedAnswer packed = packer.pack(p.query(), response);
            if (json) {
                HitFormatter.printJson(System.out, PackedFormatter.json(p.query(), indexLabel, response, packed, notes));
            } else {
                PackedFormatter.printText(System.out, packed, response, notes);
            }
        } else if (json) {
            HitFormatter.printJson(System.out, HitFormatter.json(p.query(), indexLabel, response, notes));
        } else {
            HitFormatter.printText(System.out, p.query(), response, notes);
        }
    }
}
