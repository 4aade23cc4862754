package dev.neuraltext.cli;

import dev.neuraltext.cli.results.HitFormatter;
import dev.neuraltext.cli.results.RelatedFormatter;
import dev.neuraltext.retrieve.RelatedCode;
import dev.neuraltext.retrieve.RelatedRequest;
import dev.neuraltext.retrieve.RelatedResult;
import dev.neuraltext.retrieve.Relation;
import dev.neuraltext.store.InMemoryCaseStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code neural-text related PATH[:LINE] [--symbol NAME]}: the code that belongs with a file, the definition at a line
 * or a named definition ({@link RelatedCode}), printed as search hits are.
 */
@Command(name = "related", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The code that belongs with a file, a line or a definition, from an index built by "
                + "`neural-text index`: the code that uses it (by name, across languages), the definitions it uses, "
                + "its tests (when indexed with --with-tests) and its documentation, ranked.",
            "Each hit shows path:line, symbol, its relation (used-by, uses, test, doc) with the names that link it, "
                    + "the score and a snippet."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:results printed (possibly none)", "1:failure",
            "2:bad input (a path not in the index, a line outside its chunks, an unknown symbol or relation)",
            "3:no usable index (missing, unreadable)"})
final class RelatedCommand implements Callable<Integer> {

    private static final Pattern WITH_LINE = Pattern.compile("(.+):(\\d+)");

    @Parameters(index = "0", paramLabel = "PATH[:LINE]", description = "A file of the index, relative to the indexed "
            + "folder (or a path to it from here), optionally with a line: src/main/java/a/RetryPolicy.java:42.")
    String target;

    @Option(names = "--symbol", paramLabel = "NAME", description = "A definition of the file by name (delayFor, "
            + "RetryPolicy.delayFor) instead of a line.")
    String symbol;

    @Option(names = "--index", paramLabel = "DIR", description = "Index folder (default: ./.neural-text).")
    Path index;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "" + RelatedRequest.DEFAULT_LIMIT,
            description = "Hits to return (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--relations", paramLabel = "REL", split = ",", description = "Only these relations: used-by, "
            + "uses, test, doc (default: all).")
    List<String> relations;

    @Option(names = "--json", description = "Print the answer as JSON.")
    boolean json;

    @Override
    public Integer call() {
        return Cli.guard("related", () -> {
            if (limit < 1) {
                throw new CliException(CliException.USAGE, "--limit must be at least 1, got " + limit);
            }
            Set<Relation> wanted = EnumSet.noneOf(Relation.class);
            if (relations != null) {
                for (String r : relations) {
                    wanted.add(Relation.fromLabel(r.strip()));
                }
            }
            Path dir = (index != null ? index : Path.of(IndexSession.DEFAULT_INDEX_DIR)).toAbsolutePath().normalize();
            String path = target;
            int line = 0;
            Matcher m = WITH_LINE.matcher(target);
            if (m.matches()) {
                path = m.group(1);
                line = Integer.parseInt(m.group(2));
                if (line < 1) {
                    throw new CliException(CliException.USAGE, "the line of " + target + " must be at least 1");
                }
            }
            try (IndexSession session = IndexSession.open(dir, false, null, System.err)) {
                if (!(session.store instanceof InMemoryCaseStore store)) {
                    throw new CliException(CliException.USAGE, "related needs an index folder, not " + dir);
                }
                RelatedCode related = RelatedCode.over(store);
                String indexed = indexedPath(path, dir, related.paths());
                RelatedResult r = related.find(new RelatedRequest(indexed, line, symbol, limit, wanted));
                List<String> notes = RelatedFormatter.notes(r);
                if (json) {
                    HitFormatter.printJson(System.out, RelatedFormatter.json(dir.toString(), r, notes));
                } else {
                    RelatedFormatter.printText(System.out, r, notes);
                }
            }
            return 0;
        });
    }

    /**
     * The index's path for {@code path}: as given (forward slashes, no leading {@code ./}) when the index has it, else
     * the file it names on disk relative to the indexed folder (the index folder's parent); else as given, for the
     * finder's error.
     */
    static String indexedPath(String path, Path indexDir, Set<String> indexed) {
        String p = path.replace('\\', '/');
        while (p.startsWith("./")) {
            p = p.substring(2);
        }
        if (indexed.contains(p) || indexDir.getParent() == null) {
            return p;
        }
        Path file = Path.of(path).toAbsolutePath().normalize();
        Path root = indexDir.getParent();
        if (Files.isRegularFile(file) && file.startsWith(root)) {
            return root.relativize(file).toString().replace('\\', '/');
        }
        return p;
    }
}
