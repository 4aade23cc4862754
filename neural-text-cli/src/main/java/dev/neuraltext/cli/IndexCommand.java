package dev.neuraltext.cli;

import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.ingest.DirectoryIngestor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code neural-text index <folder>}: builds or incrementally updates the on-disk index of a folder. */
@Command(name = "index", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Build or update the index of a folder of code and docs: code by definition (Java and the "
                + "languages tree-sitter parses), Markdown by section, other text by window.",
            "Re-running re-chunks and re-embeds only changed files and drops the chunks of deleted ones. Test sources, "
                    + ".gitignore'd, hidden, binary and large files are skipped."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:index built or up to date", "1:indexing failed, or another process is updating the index",
            "2:bad input (missing folder, invalid glob, unwritable --index)", "3:the Qdrant collection cannot be used"})
final class IndexCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FOLDER", description = "The folder to index.")
    Path folder;

    @Option(names = "--index", paramLabel = "DIR", description = "Index folder (default: FOLDER/.neural-text).")
    Path index;

    @Option(names = "--include", paramLabel = "GLOB",
            description = "Only files matching one of these globs, comma-separated outside braces (e.g. "
                    + "'*.{java,md},docs'); repeatable. Globs read as in .gitignore: without a '/' a name at any "
                    + "depth ('*.md'), with one a path from FOLDER ('src/main', '/build'); a trailing '/' takes "
                    + "folders only; a folder takes all below it; '*' stays within a name, '**' spans folders.")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "GLOB",
            description = "Skip files and folders matching these globs, read as --include reads them (e.g. "
                    + "'generated/' for every folder so named, '/build' for the top one only); repeatable.")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--with-tests", description = "Index test sources too (src/test/**, *Test.java, ...).")
    boolean withTests;

    @Option(names = "--model", paramLabel = "<preset>", description = DenseModel.MODEL_HELP)
    String model;

    @Option(names = "--no-dense", description = "Do not load the dense model for this run (much faster). The index "
            + "keeps the dense vectors it has; changed files lack them until a run with the model embeds them.")
    boolean noDense;

    @Option(names = "--drop-dense", description = "Rebuild the index without its dense leg (implies --no-dense).")
    boolean dropDense;

    @Option(names = "--max-file-size", paramLabel = "BYTES", defaultValue = "" + DirectoryIngestor.DEFAULT_MAX_FILE_BYTES,
            description = "Skip files larger than this (default: ${DEFAULT-VALUE}).")
    long maxFileBytes;

    @Option(names = "--qdrant", paramLabel = "HOST:PORT",
            description = "Index into a Qdrant server (gRPC port, default 6334) instead of the embedded store; the "
                    + "file manifest stays in the index folder.")
    String qdrant;

    @Option(names = "--collection", paramLabel = "NAME", defaultValue = "neural-text",
            description = "Qdrant collection (default: ${DEFAULT-VALUE}).")
    String collection;

    @Override
    public Integer call() {
        return Cli.guard("index", () -> {
            Path root = folder.toAbsolutePath().normalize();
            Path dir = index != null ? index.toAbsolutePath().normalize() : root.resolve(IndexSession.DEFAULT_INDEX_DIR);
            IndexSession.Indexed r = IndexSession.index(root, dir,
                    new IndexSession.IndexOptions(includes, excludes, withTests, !noDense && !dropDense, maxFileBytes,
                            DenseModel.checkPreset(model), dropDense),
                    IndexSession.QdrantTarget.parse(qdrant, collection), System.err, Cli.terminal());
            try {
                IndexSummary.print(System.out, root, r);
            } finally {
                r.session().close();
            }
            return 0;
        });
    }
}
