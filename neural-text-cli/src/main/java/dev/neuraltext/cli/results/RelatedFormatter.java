package dev.neuraltext.cli.results;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.internal.ControlChars;
import dev.neuraltext.retrieve.RelatedHit;
import dev.neuraltext.retrieve.RelatedResult;
import dev.neuraltext.search.SearchHit;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints {@code neural-text related} answers as {@link HitFormatter} prints search hits: for people (rank, place,
 * symbol, the relation and the names that link it, score, snippet) and as JSON of the same hit shape plus
 * {@code relation} and {@code names}. The snippet is centred on the linking names. Stateless; thread-safe.
 */
public final class RelatedFormatter {

    private RelatedFormatter() {
    }

    /** Prints {@code r} for people; {@code notes} follow the summary. */
    public static void printText(PrintStream out, RelatedResult r, List<String> notes) {
        int rank = 0;
        for (RelatedHit rh : r.hits()) {
            rank++;
            SearchHit hit = rh.hit();
            Map<String, String> m = hit.metadata();
            String where = ControlChars.escapeLine(m.getOrDefault(ChunkMetadata.PATH, hit.id())
                    + (m.containsKey(ChunkMetadata.START_LINE) ? ":" + m.get(ChunkMetadata.START_LINE) : ""));
            String symbol = ControlChars.escapeLine(m.getOrDefault(ChunkMetadata.SYMBOL, ""));
            String kind = ControlChars.escapeLine(m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, ""));
            out.printf(Locale.ROOT, "%2d. %s  %s%s%n", rank, where, symbol, kind.isEmpty() ? "" : "  (" + kind + ")");
            out.printf(Locale.ROOT, "    %s%s  score %.3f%n", rh.relation().label(), rh.names().isEmpty() ? ""
                    : " " + ControlChars.escapeLine(String.join(", ", rh.names())), hit.score());
            for (String line : HitFormatter.snippet(hit.text(), String.join(" ", rh.names()))) {
                out.println("    | " + ControlChars.escapeLine(line));
            }
        }
        if (r.hits().isEmpty()) {
            out.println("Nothing related found for " + ControlChars.escapeLine(r.path()) + ".");
        }
        out.println(summary(r));
        for (String note : notes) {
            out.println("note: " + ControlChars.escapeLine(note));
        }
    }

    /** {@code "8 of 23 related chunks in 12 files (names looked up: RetryPolicy, delayFor)"}. */
    public static String summary(RelatedResult r) {
        return String.format(Locale.ROOT, "%d of %d related chunks in %d files (names looked up: %s)",
                r.hits().size(), r.totalHits(), r.totalFiles(), r.names().isEmpty() ? "none"
                : String.join(", ", r.names()));
    }

    /** The notes an answer carries: tests not indexed. */
    public static List<String> notes(RelatedResult r) {
        List<String> notes = new ArrayList<>();
        if (!r.testsIndexed()) {
            notes.add("the index holds no test sources, so no tests are listed: index with --with-tests for them");
        }
        return notes;
    }

    /** The JSON document of an answer. */
    public static Map<String, Object> json(String index, RelatedResult r, List<String> notes) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("path", r.path());
        root.put("index", index);
        root.put("targets", r.targets());
        root.put("names", r.names());
        root.put("summary", summary(r));
        root.put("returned", r.hits().size());
        root.put("totalHits", r.totalHits());
        root.put("totalFiles", r.totalFiles());
        root.put("notes", notes);
        List<Map<String, Object>> hits = new ArrayList<>();
        int rank = 0;
        for (RelatedHit rh : r.hits()) {
            rank++;
            SearchHit hit = rh.hit();
            Map<String, String> m = hit.metadata();
            Map<String, Object> h = HitFormatter.jsonPlace(rank, hit);
            h.put("relation", rh.relation().label());
            h.put("names", rh.names());
            h.put("score", hit.score());
            h.put("metadata", m);
            h.put("snippet", String.join("\n", HitFormatter.snippet(hit.text(), String.join(" ", rh.names()))));
            h.put("text", hit.text());
            hits.add(h);
        }
        root.put("hits", hits);
        return root;
    }
}
