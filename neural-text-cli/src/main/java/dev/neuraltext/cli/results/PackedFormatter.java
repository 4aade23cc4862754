package dev.neuraltext.cli.results;

import dev.neuraltext.internal.ControlChars;
import dev.neuraltext.search.PackedAnswer;
import dev.neuraltext.search.PackedAnswer.Excerpt;
import dev.neuraltext.search.PackedAnswer.PackedHit;
import dev.neuraltext.search.SearchResponse;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints answers packed into a token budget ({@link PackedAnswer}) for people and for programs, for {@code search
 * --budget} and the MCP server's {@code search}. Control characters of indexed text are escaped as {@link HitFormatter}
 * escapes them. Stateless; thread-safe.
 */
public final class PackedFormatter {

    private PackedFormatter() {
    }

    /** The packed hits, numbered, each its header and kept lines; then the summary, the time and the notes. */
    public static void printText(PrintStream out, PackedAnswer packed, SearchResponse response, List<String> notes) {
        for (PackedHit h : packed.hits()) {
            out.println(text(h));
            out.println();
        }
        if (packed.hits().isEmpty()) {
            out.println("No results.");
        }
        out.printf(Locale.ROOT, "%s  [%s; %.0f ms]%n", packed.summary(), HitFormatter.legsLabel(response),
                response.timings().total().toNanos() / 1e6);
        for (String note : notes) {
            out.println("note: " + ControlChars.escapeLine(note));
        }
    }

    /** A packed hit as read: {@code rank. header}, then its kept lines and elision marks, control characters escaped. */
    public static String text(PackedHit h) {
        String[] lines = h.text().split("\n", -1);
        StringBuilder b = new StringBuilder();
        b.append(h.rank()).append(". ").append(ControlChars.escapeLine(lines[0]));
        for (int i = 1; i < lines.length; i++) {
            b.append('\n').append(ControlChars.escapeLine(lines[i]));
        }
        return b.toString();
    }

    /** The JSON document of a packed answer: the response's fields, the packing's figures, then the packed hits. */
    public static Map<String, Object> json(String query, String index, SearchResponse response, PackedAnswer packed,
            List<String> notes) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("query", query);
        root.put("index", index);
        root.put("summary", packed.summary());
        root.put("returned", response.hits().size());
        root.put("totalAboveThreshold", response.totalAboveThreshold());
        root.put("extended", response.extended());
        root.put("tookMs", Math.round(response.timings().total().toNanos() / 1e4) / 100.0);
        root.put("budget", packing(packed));
        root.put("notes", notes);
        List<Map<String, Object>> hits = new ArrayList<>();
        for (PackedHit h : packed.hits()) {
            hits.add(row(h));
        }
        root.put("hits", hits);
        return root;
    }

    /** The packing's figures: budget, tokens used, hits shown, and what was left out and would cost. */
    public static Map<String, Object> packing(PackedAnswer packed) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tokens", packed.budget());
        m.put("used", packed.tokens());
        m.put("shown", packed.hits().size());
        m.put("trimmed", packed.hits().stream().filter(PackedHit::trimmed).count());
        m.put("notShown", packed.notShown());
        m.put("notShownReturned", packed.notShownFetched());
        m.put("notShownTokens", packed.notShownTokens());
        return m;
    }

    /**
     * One packed hit: its place ({@link HitFormatter#jsonPlace}), score, whether it is above the threshold, its text as
     * read (header, kept lines, elision marks), whether it was trimmed, how many lines were left out, its tokens and
     * the file lines of each kept run ({@code [start, end]}, absent where the lines cannot be placed).
     */
    public static Map<String, Object> row(PackedHit h) {
        Map<String, Object> row = HitFormatter.jsonPlace(h.rank(), h.hit());
        row.put("score", Math.round(h.hit().score() * 1000) / 1000.0);
        row.put("aboveThreshold", h.aboveThreshold());
        row.put("text", h.text());
        row.put("trimmed", h.trimmed());
        row.put("elidedLines", h.elidedLines());
        row.put("tokens", h.tokens());
        List<List<Integer>> runs = new ArrayList<>();
        for (Excerpt e : h.excerpts()) {
            if (e.startLine() > 0) {
                runs.add(List.of(e.startLine(), e.endLine()));
            }
        }
        row.put("lines", runs);
        return row;
    }
}
