package dev.neuraltext.cli;

import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.ScanResult;
import dev.neuraltext.ingest.SourceFile;
import dev.neuraltext.store.InMemoryCaseStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code neural-text demo [folder] [query]}: the main job in one step: index a folder, then answer a query. */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Index a folder (default: the current one) into FOLDER/.neural-text and answer a query: "
                + "the main job in one step.",
            "Later runs reuse the index and re-index only changed files; `neural-text search` asks more questions."})
final class DemoCommand implements Callable<Integer> {

    static final String DEFAULT_QUERY = "how are results from several retrieval legs fused";

    /**
     * Source bytes the default dense leg (bge-small-en-v1.5, int8) indexes per second and core on a quiet machine, only
     * for the first-run estimate: this repository (203 files, 1.2 MB, 1,884 chunks) took 57.7 s on 2 idle cores, about
     * 10,500 bytes per core-second; 8,000 leaves room for slower cores. A busy machine is slower still, hence "about"
     * and "longer when the machine is busy".
     */
    static final double EMBEDDED_BYTES_PER_CORE_SECOND = 8_000;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FOLDER", defaultValue = ".",
            description = "The folder to index (default: the current folder).")
    Path folder;

    @Parameters(index = "1", arity = "0..1", paramLabel = "QUERY", defaultValue = DEFAULT_QUERY,
            description = "What to ask (default: \"${DEFAULT-VALUE}\").")
    String query;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "5", description = "Hits to show (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--model", paramLabel = "<preset>", description = DenseModel.MODEL_HELP)
    String model;

    @Option(names = "--no-dense", description = "Do not load the dense model for this run; the index keeps the dense"
            + " vectors it has.")
    boolean noDense;

    @Option(names = "--json", description = "Print the answer as JSON (the index summary goes to stderr).")
    boolean json;

    @Override
    public Integer call() {
        return Cli.guard("demo", () -> {
            SearchCommand.Parsed p = SearchCommand.parse(query, limit, null, null);
            Path root = folder.toAbsolutePath().normalize();
            if (!noDense && !InMemoryCaseStore.exists(root.resolve(IndexSession.DEFAULT_INDEX_DIR))) {
                ScanResult scan = DirectoryIngestor.builder(root).build().scan();
                System.err.println(firstRunNote(scan.files().size(), scan.files().stream().mapToLong(SourceFile::size)
                        .sum(), Runtime.getRuntime().availableProcessors()));
            }
            IndexSession.Indexed r = IndexSession.index(root, root.resolve(IndexSession.DEFAULT_INDEX_DIR),
                    new IndexSession.IndexOptions(List.of(), List.of(), false, !noDense,
                            dev.neuraltext.ingest.DirectoryIngestor.DEFAULT_MAX_FILE_BYTES, DenseModel.checkPreset(model)),
                    System.err, Cli.terminal());
            try (IndexSession s = r.session()) {
                IndexSummary.print(json ? System.err : System.out, root, r);
                if (!json) {
                    System.out.println();
                    System.out.println("Query: " + p.query());
                    System.out.println();
                }
                SearchCommand.run(s, p, true, json, s.indexDir.toString(), null);
                if (!json) {
                    System.out.println();
                    System.out.println("Ask more: " + launcher() + " search \"<query>\" --index " + s.indexDir);
                }
            }
            return 0;
        });
    }

    /** What the first run (no index yet) says before it embeds {@code files} of {@code bytes} in total. */
    static String firstRunNote(int files, long bytes, int cores) {
        double seconds = bytes / (EMBEDDED_BYTES_PER_CORE_SECOND * Math.max(1, cores));
        long minutes = Math.round(seconds / 60);
        String estimate = seconds < 45 ? "less than a minute" : "about " + Math.max(1, minutes)
                + (minutes <= 1 ? " minute" : " minutes");
        return String.format(Locale.ROOT, "First run: indexing %d %s (%.1f MB) with BM25 and the dense leg; "
                + "embedding takes %s on %d %s (longer when the machine is busy). Later runs re-index only changed files; --no-dense answers in "
                + "seconds.", files, files == 1 ? "file" : "files", bytes / 1e6, estimate, cores,
                cores == 1 ? "core" : "cores");
    }

    /**
     * How this program was started, relative to the working folder: the installed launcher ({@code bin/neural-text},
     * which sets {@code app.home} and {@code app.name}), else {@code java -jar <jar>} when run from a jar.
     */
    static String launcher() {
        String home = System.getProperty("app.home");
        String name = System.getProperty("app.name");
        if (home != null && name != null) {
            Path script = Path.of(home, "bin", name).toAbsolutePath().normalize();
            Path cwd = Path.of("").toAbsolutePath();
            return (script.startsWith(cwd) ? cwd.relativize(script) : script).toString();
        }
        try {
            Path jar = Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (jar.toString().endsWith(".jar")) {
                Path cwd = Path.of("").toAbsolutePath();
                return "java -jar " + (jar.startsWith(cwd) ? cwd.relativize(jar) : jar);
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // fall through to the generic name
        }
        return "neural-text";
    }
}
