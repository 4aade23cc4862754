package dev.neuraltext.cli;

import dev.neuraltext.cli.results.HitFormatter;
import dev.neuraltext.store.IndexCheck;
import dev.neuraltext.store.IndexCheck.DropResult;
import dev.neuraltext.store.IndexCheck.FileReport;
import dev.neuraltext.store.IndexCheck.GenerationReport;
import dev.neuraltext.store.IndexCheck.Report;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code neural-text check}: reports, in the manner of Lucene's CheckIndex, what it finds in an index folder, file by
 * file and generation by generation, and with {@code --drop-damaged} removes a damaged current generation.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check an index folder built by `neural-text index`: for every generation and every file, "
                + "whether it is present, whole (length), a neural-text file (magic number) of this format version, "
                + "and its checksum (stored vs computed); then a full read of chunks, BM25 postings, vectors and the "
                + "HNSW graph.",
            "Reads only and needs no lock; --drop-damaged takes the index's write lock."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the index is healthy",
            "1:failure (I/O error, another process is updating the index)",
            "2:bad usage (unknown option, --index is not a folder)",
            "3:the index is damaged or absent (also after --drop-damaged removed the damage)"})
final class CheckCommand implements Callable<Integer> {

    @Option(names = "--index", paramLabel = "DIR", description = "Index folder (default: ./.neural-text).")
    Path index;

    @Option(names = "--drop-damaged", description = "When the current generation is damaged, remove it: point "
            + "CURRENT at the newest whole older generation, or remove CURRENT so that the next `neural-text index` "
            + "rebuilds. Healthy generations are never removed.")
    boolean dropDamaged;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() {
        return Cli.guard("check", () -> {
            Path dir = (index != null ? index : Path.of(IndexSession.DEFAULT_INDEX_DIR)).toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new CliException(CliException.USAGE, "--index " + dir + ": no such folder");
            }
            Report report = IndexCheck.check(dir);
            DropResult dropped = null;
            if (dropDamaged && report.indexFound() && !report.healthy()) {
                dropped = IndexCheck.dropDamaged(dir);
            }
            if (json) {
                HitFormatter.printJson(System.out, toJson(report, dropped));
            } else {
                print(System.out, report, dropped);
            }
            return report.healthy() ? CliException.OK : CliException.INDEX;
        });
    }

    static void print(PrintStream out, Report r, DropResult dropped) {
        out.println("index folder " + r.directory() + " (this neural-text reads format version " + r.libraryVersion()
                + ")");
        if (!r.indexFound()) {
            out.println("no index: no CURRENT file and no generation; build one with `neural-text index <folder>`");
            return;
        }
        out.println("CURRENT names " + (r.current().isEmpty() ? "nothing" : r.current()));
        for (String p : r.problems()) {
            out.println("damaged: " + p);
        }
        for (GenerationReport g : r.generations()) {
            out.println();
            out.println(g.name() + (g.current() ? " (current)" : "") + ": "
                    + (g.healthy() ? "healthy" : "damaged: " + g.problem()
                    + (g.current() ? "" : " (not the current generation: the next save deletes it)")));
            for (FileReport f : g.files()) {
                out.println(String.format(Locale.ROOT, "  %-22s %-17s %s", f.name(), f.status().name().toLowerCase(
                        Locale.ROOT), fileDetail(f)));
            }
            if (g.chunks() >= 0) {
                out.println("  chunks " + g.chunks() + ", dense vectors " + g.denseCoverage().describe()
                        + ", sparse vectors " + g.sparseChunks());
            }
            if (!g.loaded()) {
                out.println("  BM25 postings and HNSW graph not read: the generation does not load");
            } else {
                out.println("  BM25 postings " + (g.bm25() ? "read" : "saved with other settings (rebuilt from the "
                        + "chunks on load)") + "; HNSW graph " + (g.hnswGraph() ? "read"
                        : "none saved (built on load when wanted)"));
            }
        }
        out.println();
        out.println(r.healthy() ? "result: healthy" : "result: damaged");
        if (dropped != null) {
            if (dropped.removed().isEmpty()) {
                out.println("removed nothing: the current generation is whole");
            }
            for (String removed : dropped.removed()) {
                out.println("removed " + removed);
            }
            out.println(dropped.current().isEmpty()
                    ? "no generation left: the next `neural-text index <folder>` rebuilds the index from the files"
                    : "CURRENT now names " + dropped.current() + "; the next `neural-text index <folder>` updates it");
        } else if (!r.healthy()) {
            out.println("rebuild with `neural-text index <folder>`, or run `neural-text check --drop-damaged` to "
                    + "remove the damaged generation");
        }
    }

    private static String fileDetail(FileReport f) {
        StringBuilder s = new StringBuilder();
        s.append(f.bytes() < 0 ? "absent" : f.bytes() + " bytes");
        if (f.formatVersion() >= 0) {
            s.append(", version ").append(f.formatVersion());
        }
        if (f.computedCrc() >= 0) {
            s.append(", crc stored ").append(Long.toHexString(f.storedCrc()))
                    .append(" computed ").append(Long.toHexString(f.computedCrc()));
        }
        if (!f.detail().isEmpty()) {
            s.append(": ").append(f.detail());
        }
        return s.toString();
    }

    /** The stable JSON shape, documented in docs/command-line.md. */
    static Map<String, Object> toJson(Report r, DropResult dropped) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("index", r.directory());
        doc.put("formatVersion", r.libraryVersion());
        doc.put("indexFound", r.indexFound());
        doc.put("healthy", r.healthy());
        doc.put("current", r.current().isEmpty() ? null : r.current());
        doc.put("problems", r.problems());
        List<Map<String, Object>> gens = new ArrayList<>();
        for (GenerationReport g : r.generations()) {
            Map<String, Object> gm = new LinkedHashMap<>();
            gm.put("name", g.name());
            gm.put("current", g.current());
            gm.put("healthy", g.healthy());
            gm.put("problem", g.problem().isEmpty() ? null : g.problem());
            gm.put("chunks", g.chunks() < 0 ? null : g.chunks());
            gm.put("denseChunks", g.denseChunks() < 0 ? null : g.denseChunks());
            gm.put("sparseChunks", g.sparseChunks() < 0 ? null : g.sparseChunks());
            gm.put("bm25Read", g.bm25());
            gm.put("hnswGraphRead", g.hnswGraph());
            gm.put("loaded", g.loaded());
            List<Map<String, Object>> files = new ArrayList<>();
            for (FileReport f : g.files()) {
                Map<String, Object> fm = new LinkedHashMap<>();
                fm.put("name", f.name());
                fm.put("status", f.status().name().toLowerCase(Locale.ROOT));
                fm.put("bytes", f.bytes() < 0 ? null : f.bytes());
                fm.put("manifestBytes", f.manifestBytes() < 0 ? null : f.manifestBytes());
                fm.put("formatVersion", f.formatVersion() < 0 ? null : f.formatVersion());
                fm.put("storedCrc", f.computedCrc() < 0 ? null : Long.toHexString(f.storedCrc()));
                fm.put("computedCrc", f.computedCrc() < 0 ? null : Long.toHexString(f.computedCrc()));
                fm.put("detail", f.detail().isEmpty() ? null : f.detail());
                files.add(fm);
            }
            gm.put("files", files);
            gens.add(gm);
        }
        doc.put("generations", gens);
        if (dropped != null) {
            Map<String, Object> dm = new LinkedHashMap<>();
            dm.put("removed", dropped.removed());
            dm.put("current", dropped.current().isEmpty() ? null : dropped.current());
            doc.put("dropped", dm);
        }
        return doc;
    }
}
