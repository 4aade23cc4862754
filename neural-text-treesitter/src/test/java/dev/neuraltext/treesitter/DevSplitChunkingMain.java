package dev.neuraltext.treesitter;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.ScanResult;
import dev.neuraltext.ingest.SkipReason;
import dev.neuraltext.ingest.SkippedFile;
import dev.neuraltext.ingest.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * For each repository of a semble-dev {@code roots.tsv} (a measurement, run by hand; not a test): how many source
 * files of the 19 languages the ingestor skips as unsupported, and per language the files chunked by syntax tree
 * and by plain-text windows and the chunks per file, with DirectoryIngestor's defaults (as {@code index} runs).
 */
public final class DevSplitChunkingMain {

    private static final Set<String> SOURCE_EXTENSIONS = Set.of("java", "kt", "kts", "scala", "sc", "py", "pyi", "ts",
            "tsx", "js", "jsx", "mjs", "go", "rs", "c", "h", "cc", "cpp", "hpp", "cs", "rb", "php", "swift", "ex",
            "exs", "hs", "lua", "zig", "sh", "bash");

    private DevSplitChunkingMain() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("| repository | language | source files skipped as unsupported | files | by syntax tree | "
                + "by windows | chunks | chunks per file | chunk ms |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] cols = line.split("\t");
            if (cols.length < 3) {
                continue;
            }
            DirectoryIngestor ingestor = DirectoryIngestor.builder(Path.of(cols[2])).build();
            ScanResult scan = ingestor.scan();
            long unsupported = 0;
            for (SkippedFile s : scan.skipped()) {
                String name = s.path().substring(s.path().lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
                int dot = name.lastIndexOf('.');
                if (s.reason() == SkipReason.UNSUPPORTED_TYPE && dot > 0
                        && SOURCE_EXTENSIONS.contains(name.substring(dot + 1))) {
                    unsupported++;
                    System.err.println("unsupported: " + cols[0] + "/" + s.path());
                }
            }
            int files = 0;
            int syntax = 0;
            int windows = 0;
            int chunks = 0;
            long t0 = System.nanoTime();
            for (SourceFile f : scan.files()) {
                if (!f.language().equals(languageName(cols[1]))) {
                    continue;
                }
                List<ChunkInput> cs = ingestor.chunk(f).chunks();
                files++;
                chunks += cs.size();
                boolean windowed = cs.stream().anyMatch(c -> ChunkMetadata.SYMBOL_TYPE_TEXT.equals(
                        c.metadata().get(ChunkMetadata.SYMBOL_TYPE)));
                if (windowed) {
                    windows++;
                } else {
                    syntax++;
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %d | %.1f | %d |%n", cols[0], cols[1],
                    unsupported, files, syntax, windows, chunks, files == 0 ? 0.0 : (double) chunks / files, ms);
        }
    }

    /** roots.tsv's language name as DirectoryIngestor.languageOf names it. */
    private static String languageName(String rootsLanguage) {
        return switch (rootsLanguage) {
            case "bash" -> "shell";
            default -> rootsLanguage;
        };
    }
}
