package dev.neuraltext.mcp;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.cli.results.HitFormatter;
import dev.neuraltext.cli.results.PackedFormatter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.AnswerPacker;
import dev.neuraltext.search.PackedAnswer;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.DenseCoverage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A search answer written for a model to read: one line per hit ({@code path:startLine-endLine}, symbol, kind, score)
 * with a short snippet, then the extension line ("8 results, 16 above threshold: call again with limit 16 for the
 * rest"), then notes on an index still being built or partly without dense vectors; and the same content as
 * structured data. When nothing is above the relevance threshold it says so plainly and lists the best few, marked as
 * below it. A hit counts as above the threshold when its rank is within {@link SearchResponse#totalAboveThreshold()}
 * (candidates are ranked best first).
 *
 * @param text       the text content
 * @param structured the {@code structuredContent}, matching the tool's output schema
 */
record SearchAnswer(String text, Map<String, Object> structured) {

    private static final int SNIPPET_LINES = 3;
    /** The longest snippet line shown; longer lines (minified code) are cut with a mark. */
    static final int SNIPPET_LINE_CHARS = 240;
    /** How much of the query an answer repeats. */
    static final int QUERY_ECHO_CHARS = 200;

    static SearchAnswer of(String query, int limit, SearchResponse r, LiveIndex.Status status, Set<Leg> requested,
            int filesChanged) {
        return of(query, limit, r, status, requested, new Freshness(filesChanged, true, false, 0, 0, 0, 0));
    }

    /**
     * The answer to a search whose results reflect the folder as {@code freshness} says. Its text stays within
     * {@link McpTools#OUTPUT_CAP_CHARS}: hits that would pass it are left out, and the answer says how many.
     */
    static SearchAnswer of(String query, int limit, SearchResponse r, LiveIndex.Status status, Set<Leg> requested,
            Freshness freshness) {
        String echo = clip(query, QUERY_ECHO_CHARS);
        int above = r.totalAboveThreshold();
        List<SearchHit> hits = above == 0 ? r.hits().subList(0, Math.min(McpTools.BELOW_THRESHOLD_SHOWN,
                r.hits().size())) : r.hits();
        StringBuilder text = new StringBuilder();
        List<Map<String, Object>> rows = new ArrayList<>();
        if (r.hits().isEmpty()) {
            text.append("No results for \"").append(echo).append("\".\n");
        } else if (above == 0) {
            text.append("No result above the relevance threshold: what you look for is probably not in this index. "
                    + "The best ").append(hits.size()).append(", all below the threshold:\n");
        }
        int rank = 0;
        int budget = McpTools.OUTPUT_CAP_CHARS - 4_000; // room for the summary and the notes
        int cappedOut = 0;
        for (SearchHit hit : hits) {
            if (text.length() > budget) {
                cappedOut = hits.size() - rank;
                break;
            }
            rank++;
            Map<String, String> m = hit.metadata();
            boolean isAbove = rank <= above;
            String symbol = m.getOrDefault(ChunkMetadata.SYMBOL, "");
            String kind = m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, "");
            List<String> snippet = HitFormatter.snippet(hit.text(), query).stream().filter(l -> !l.isBlank())
                    .limit(SNIPPET_LINES).map(l -> clip(l.strip(), SNIPPET_LINE_CHARS)).toList();
            text.append(String.format(Locale.ROOT, "%d. %s  %s%s  score %.2f%s%n", rank, location(m, hit.id()), symbol,
                    kind.isEmpty() ? "" : " (" + kind + ")", hit.score(), isAbove ? "" : "  [below threshold]"));
            for (String line : snippet) {
                text.append("   ").append(line).append('\n');
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("rank", rank);
            row.put("id", hit.id());
            row.put("path", m.getOrDefault(ChunkMetadata.PATH, hit.id()));
            row.put("startLine", intOr(m.get(ChunkMetadata.START_LINE), 1));
            row.put("endLine", intOr(m.get(ChunkMetadata.END_LINE), intOr(m.get(ChunkMetadata.START_LINE), 1)));
            row.put("symbol", symbol);
            row.put("kind", kind);
            row.put("score", Math.round(hit.score() * 1000) / 1000.0);
            row.put("aboveThreshold", isAbove);
            row.put("snippet", String.join("\n", snippet));
            rows.add(row);
        }
        int shown = rows.size();
        String summary = shown + (shown == 1 ? " result, " : " results, ") + above + " above threshold";
        if (above > hits.size() && cappedOut == 0) {
            summary += ": call again with limit " + above + " for the rest";
        }
        text.append(summary).append('.');

        List<String> notes = notes(status, r, requested, freshness.filesChanged());
        freshness.note().ifPresent(notes::add);
        if (cappedOut > 0) {
            notes.add(String.format(Locale.ROOT, "output capped at %,d characters (the server's limit for one answer): "
                    + "%d more hits not shown; ask with a lower limit or a narrower filter for the rest.",
                    McpTools.OUTPUT_CAP_CHARS, cappedOut));
        }
        for (String n : notes) {
            text.append("\nNote: ").append(n);
        }
        Map<String, Object> s = structuredHead(echo, r, rows.size(), summary);
        s.put("indexComplete", status.phase() != LiveIndex.Phase.INDEXING);
        s.put("denseCoverage", Map.of("chunks", status.coverage().chunks(), "withDense", status.coverage().withDense()));
        s.put("freshness", freshness.structured());
        s.put("outputCapChars", McpTools.OUTPUT_CAP_CHARS);
        s.put("cappedHits", cappedOut);
        s.put("notes", notes);
        s.put("hits", rows);
        return new SearchAnswer(text.toString(), s);
    }

    /**
     * The answer packed into {@code packer}'s token budget ({@link AnswerPacker}): each hit numbered, its header
     * ({@code path:startLine-endLine  symbol (kind)  score}) and its lines, long ones trimmed with the elided lines
     * marked; then the packing's summary (what was left out and what it would cost) and the notes. When nothing is
     * above the relevance threshold it says so and packs the best {@value McpTools#BELOW_THRESHOLD_SHOWN}, marked.
     */
    static SearchAnswer packed(String query, SearchResponse r, LiveIndex.Status status, Set<Leg> requested,
            Freshness freshness, AnswerPacker packer) {
        String echo = clip(query, QUERY_ECHO_CHARS);
        int above = r.totalAboveThreshold();
        SearchResponse shown = above > 0 ? r : new SearchResponse(r.hits().subList(0,
                Math.min(McpTools.BELOW_THRESHOLD_SHOWN, r.hits().size())), 0, r.extended(), r.legsRun(), r.reranked(),
                r.timings());
        PackedAnswer packed = packer.pack(query, shown);
        StringBuilder text = new StringBuilder();
        if (r.hits().isEmpty()) {
            text.append("No results for \"").append(echo).append("\".\n");
        } else if (above == 0) {
            text.append("No result above the relevance threshold: what you look for is probably not in this index. "
                    + "The best ").append(shown.hits().size()).append(", all below the threshold:\n");
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (PackedAnswer.PackedHit h : packed.hits()) {
            text.append(PackedFormatter.text(h)).append("\n\n");
            rows.add(packedRow(h));
        }
        String summary = packed.summary();
        text.append(summary).append('.');
        List<String> notes = notes(status, r, requested, freshness.filesChanged());
        freshness.note().ifPresent(notes::add);
        for (String n : notes) {
            text.append("\nNote: ").append(n);
        }
        Map<String, Object> s = structuredHead(echo, r, rows.size(), summary);
        s.put("budget", PackedFormatter.packing(packed));
        s.put("indexComplete", status.phase() != LiveIndex.Phase.INDEXING);
        s.put("denseCoverage", Map.of("chunks", status.coverage().chunks(), "withDense", status.coverage().withDense()));
        s.put("freshness", freshness.structured());
        s.put("outputCapChars", McpTools.OUTPUT_CAP_CHARS);
        s.put("cappedHits", 0);
        s.put("notes", notes);
        s.put("hits", rows);
        return new SearchAnswer(text.toString(), s);
    }

    /**
     * A packed hit's structured row ({@link PackedFormatter#row}) with the place fields of an unpacked answer's hits,
     * of the same types and never null: {@code path}, {@code startLine}, {@code endLine}, {@code symbol}, {@code kind}
     * (for {@code symbolType}). Shared by {@code search} and {@code find_related}.
     */
    static Map<String, Object> packedRow(PackedAnswer.PackedHit h) {
        Map<String, String> m = h.hit().metadata();
        Map<String, Object> row = PackedFormatter.row(h);
        row.remove("symbolType");
        row.put("path", m.getOrDefault(ChunkMetadata.PATH, h.hit().id()));
        row.put("startLine", intOr(m.get(ChunkMetadata.START_LINE), 1));
        row.put("endLine", intOr(m.get(ChunkMetadata.END_LINE), intOr(m.get(ChunkMetadata.START_LINE), 1)));
        row.put("symbol", m.getOrDefault(ChunkMetadata.SYMBOL, ""));
        row.put("kind", m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, ""));
        return row;
    }

    /** The first fields of an answer's structured content: query, legs, counts, extension and summary. */
    private static Map<String, Object> structuredHead(String echo, SearchResponse r, int returned, String summary) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("query", echo);
        List<String> legs = new ArrayList<>();
        r.legsRun().forEach(l -> legs.add(l.label()));
        s.put("legs", legs);
        s.put("returned", returned);
        s.put("aboveThreshold", r.totalAboveThreshold());
        s.put("extended", r.extended());
        s.put("summary", summary);
        return s;
    }

    private static List<String> notes(LiveIndex.Status status, SearchResponse r, Set<Leg> requested,
            int filesChanged) {
        List<String> notes = new ArrayList<>();
        if (!status.saveProblem().isEmpty()) {
            notes.add(status.saveProblem() + ".");
        }
        if (status.phase() == LiveIndex.Phase.INDEXING) {
            notes.add("the index is still being built (" + (status.filesToIndex() == 0 ? "scanning the folder"
                    : status.filesDone() + " of " + status.filesToIndex() + " files so far")
                    + "): results may be missing; search again shortly.");
        }
        DenseCoverage c = status.coverage();
        if (c.partial() || (c.withDense() == 0 && status.phase() == LiveIndex.Phase.EMBEDDING)) {
            notes.add("dense vectors cover " + c.describe() + " of the index"
                    + (status.phase() == LiveIndex.Phase.EMBEDDING ? " so far (embedding in the background)" : "")
                    + ": the rest is found by keywords only.");
        }
        if (!status.denseNote().isEmpty() && (requested.isEmpty() || requested.contains(Leg.DENSE))) {
            notes.add(status.denseNote() + ".");
        }
        if (!requested.isEmpty() && !r.legsRun().containsAll(requested)) {
            List<String> ran = new ArrayList<>();
            r.legsRun().forEach(l -> ran.add(l.label()));
            notes.add("not every requested leg could run; ran " + (ran.isEmpty() ? "none" : String.join(", ", ran))
                    + " (the index has " + String.join(", ", status.legs().stream().map(Leg::label).toList()) + ").");
        }
        if (filesChanged > 0) {
            notes.add(filesChanged + (filesChanged == 1 ? " file" : " files") + " changed since the last search and "
                    + "were re-indexed first.");
        }
        return notes;
    }

    /** {@code path:startLine-endLine}, or the id for a chunk without lines. */
    static String location(Map<String, String> m, String id) {
        String path = m.get(ChunkMetadata.PATH);
        String start = m.get(ChunkMetadata.START_LINE);
        if (path == null || start == null) {
            return path != null ? path : id;
        }
        String end = m.getOrDefault(ChunkMetadata.END_LINE, start);
        return path + ":" + start + "-" + end;
    }

    /** {@code s} when it is at most {@code max} characters, else its start and a mark saying how long it was. */
    static String clip(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, end) + String.format(Locale.ROOT, "… [%,d characters in all]", s.length());
    }

    static int intOr(String s, int fallback) {
        if (s == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
