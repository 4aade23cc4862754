package dev.neuraltext.cli.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.internal.ControlChars;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints search responses for people (ranked hits with snippets) and for programs (JSON of a stable shape). Text from
 * indexed files is never printed raw: human output shows control characters other than newline and tab as visible
 * escapes ({@code \x1b}), and JSON escapes every control character, C1 and DEL included, as a JSON unicode escape.
 * The snippet rule is shared with the MCP server's answers. Stateless; thread-safe.
 */
public final class HitFormatter {

    private static final int SNIPPET_LINES = 4;

    private HitFormatter() {
    }

    /** Prints {@code response}'s hits for people: rank, place, legs, signals, snippet; then the summary and notes. */
    public static void printText(PrintStream out, String query, SearchResponse response, List<String> notes) {
        List<SearchHit> hits = response.hits();
        int rank = 0;
        for (SearchHit hit : hits) {
            rank++;
            Map<String, String> m = hit.metadata();
            String where = ControlChars.escapeLine(m.getOrDefault(ChunkMetadata.PATH, hit.id())
                    + (m.containsKey(ChunkMetadata.START_LINE) ? ":" + m.get(ChunkMetadata.START_LINE) : ""));
            String symbol = ControlChars.escapeLine(m.getOrDefault(ChunkMetadata.SYMBOL, ""));
            String kind = ControlChars.escapeLine(m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, ""));
            out.printf(Locale.ROOT, "%2d. %s  %s%s%n", rank, where, symbol, kind.isEmpty() ? "" : "  (" + kind + ")");
            StringBuilder legs = new StringBuilder();
            for (Leg leg : Leg.values()) {
                if (!response.legsRun().contains(leg)) {
                    continue;
                }
                LegScore ls = hit.legs().get(leg);
                legs.append("  ").append(leg.label()).append(ls == null ? " -" : String.format(Locale.ROOT,
                        " #%d (%.3f)", ls.rank(), ls.score()));
            }
            out.printf(Locale.ROOT, "    score %.3f%s%s%n", hit.score(),
                    hit.score() != hit.fusedScore() ? String.format(Locale.ROOT, " (fused %.3f)", hit.fusedScore()) : "",
                    legs);
            if (!hit.rankSignals().isEmpty()) {
                out.println("    ranked by " + signals(hit.rankSignals()));
            }
            for (String line : snippet(hit.text(), query)) {
                out.println("    | " + ControlChars.escapeLine(line));
            }
        }
        if (hits.isEmpty()) {
            out.println("No results for \"" + ControlChars.escapeLine(query) + "\".");
        }
        out.printf(Locale.ROOT, "%s  [%s; %.0f ms]%n", response.summary(), legsLabel(response),
                response.timings().total().toNanos() / 1e6);
        for (String note : notes) {
            out.println("note: " + ControlChars.escapeLine(note));
        }
    }

    /** The ranking stage's signals as {@code name value} pairs ({@code kind.symbol} as just the kind). */
    public static String signals(Map<String, Double> signals) {
        StringBuilder b = new StringBuilder();
        signals.forEach((k, v) -> {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(k.startsWith("kind.") ? k : k + " " + String.format(Locale.ROOT, "%.3f", v));
        });
        return b.toString();
    }

    public static String legsLabel(SearchResponse response) {
        List<String> l = new ArrayList<>();
        for (Leg leg : Leg.values()) {
            if (response.legsRun().contains(leg)) {
                l.add(leg.label());
            }
        }
        return l.isEmpty() ? "no legs" : String.join(" + ", l);
    }

    /**
     * Up to {@value #SNIPPET_LINES} lines of the chunk text after its header line, around the line sharing the most
     * words with the query.
     */
    public static List<String> snippet(String text, String query) {
        String[] all = text.split("\r?\n", -1);
        List<String> lines = new ArrayList<>();
        for (int i = 1; i < all.length; i++) {
            lines.add(all[i]);
        }
        if (lines.isEmpty()) {
            lines.add(all[0]);
        }
        List<String> words = new ArrayList<>();
        for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+")) {
            if (w.length() >= 3) {
                words.add(w);
            }
        }
        int best = -1;
        int bestScore = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).toLowerCase(Locale.ROOT);
            int s = 0;
            for (String w : words) {
                if (l.contains(w)) {
                    s++;
                }
            }
            if (s > bestScore) {
                bestScore = s;
                best = i;
            }
        }
        int from = 0;
        if (best >= 0) {
            from = Math.max(0, Math.min(best - 1, lines.size() - SNIPPET_LINES));
        }
        while (from < lines.size() - 1 && lines.get(from).isBlank()) {
            from++;
        }
        List<String> out = new ArrayList<>();
        for (int i = from; i < lines.size() && out.size() < SNIPPET_LINES; i++) {
            String l = lines.get(i);
            out.add(l.length() > 160 ? l.substring(0, 157) + "..." : l);
        }
        return out;
    }

    /** The JSON document of a response; field order and names are part of the CLI's contract. */
    public static Map<String, Object> json(String query, String index, SearchResponse response, List<String> notes) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("query", query);
        root.put("index", index);
        List<String> legs = new ArrayList<>();
        for (Leg leg : Leg.values()) {
            if (response.legsRun().contains(leg)) {
                legs.add(leg.label());
            }
        }
        root.put("legs", legs);
        root.put("summary", response.summary());
        root.put("returned", response.hits().size());
        root.put("totalAboveThreshold", response.totalAboveThreshold());
        root.put("extended", response.extended());
        root.put("reranked", response.reranked());
        root.put("tookMs", Math.round(response.timings().total().toNanos() / 1e4) / 100.0);
        root.put("notes", notes);
        List<Map<String, Object>> hits = new ArrayList<>();
        int rank = 0;
        for (SearchHit hit : response.hits()) {
            rank++;
            Map<String, String> m = hit.metadata();
            Map<String, Object> h = jsonPlace(rank, hit);
            h.put("score", hit.score());
            h.put("fusedScore", hit.fusedScore());
            Map<String, Object> legScores = new LinkedHashMap<>();
            for (Leg leg : Leg.values()) {
                LegScore ls = hit.legs().get(leg);
                if (ls != null) {
                    Map<String, Object> l = new LinkedHashMap<>();
                    l.put("rank", ls.rank());
                    l.put("score", ls.score());
                    legScores.put(leg.label(), l);
                }
            }
            h.put("legs", legScores);
            h.put("rankSignals", hit.rankSignals());
            h.put("metadata", m);
            h.put("listMetadata", hit.listMetadata());
            h.put("snippet", String.join("\n", snippet(hit.text(), query)));
            h.put("text", hit.text());
            hits.add(h);
        }
        root.put("hits", hits);
        return root;
    }

    /** The first fields of a hit's JSON: its rank, id, path, lines, symbol and symbol type (null when it has none). */
    public static Map<String, Object> jsonPlace(int rank, SearchHit hit) {
        Map<String, String> m = hit.metadata();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("rank", rank);
        h.put("id", hit.id());
        h.put("path", m.getOrDefault(ChunkMetadata.PATH, null));
        h.put("startLine", intOrNull(m.get(ChunkMetadata.START_LINE)));
        h.put("endLine", intOrNull(m.get(ChunkMetadata.END_LINE)));
        h.put("symbol", m.getOrDefault(ChunkMetadata.SYMBOL, null));
        h.put("symbolType", m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, null));
        return h;
    }

    /** Prints {@code doc} as indented JSON, every control character escaped. */
    public static void printJson(PrintStream out, Map<String, Object> doc) {
        try {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            mapper.getFactory().setCharacterEscapes(ControlCharEscapes.INSTANCE);
            out.println(mapper.writeValueAsString(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /** JSON's own escapes (C0, quote, backslash) plus DEL and C1 controls, which JSON allows raw but terminals obey. */
    private static final class ControlCharEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        static final ControlCharEscapes INSTANCE = new ControlCharEscapes();
        private final int[] ascii;

        private ControlCharEscapes() {
            ascii = standardAsciiEscapesForJSON();
            ascii[0x7f] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii.clone();
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch >= 0x80 && ch <= 0x9f ? new SerializedString(String.format(Locale.ROOT, "\\u%04x", ch)) : null;
        }
    }

    private static Integer intOrNull(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Integer.valueOf(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
