package dev.neuraltext.mcp;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.cli.results.HitFormatter;
import dev.neuraltext.cli.results.PackedFormatter;
import dev.neuraltext.cli.results.RelatedFormatter;
import dev.neuraltext.retrieve.RelatedHit;
import dev.neuraltext.retrieve.RelatedRequest;
import dev.neuraltext.retrieve.RelatedResult;
import dev.neuraltext.retrieve.Relation;
import dev.neuraltext.search.AnswerPacker;
import dev.neuraltext.search.PackedAnswer;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.SearchTimings;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code find_related} tool: {@link dev.neuraltext.retrieve.RelatedCode} over the live index of the root the path
 * lies in, answered as {@code search} answers (one line per hit with its place, symbol, kind and score, then a short
 * snippet), each hit with its relation and the names that link it. Thread-safe: it shares only the roots.
 */
final class RelatedTool {

    private static final int SNIPPET_LINES = 3;

    private final ServedRoots roots;

    RelatedTool(ServedRoots roots) {
        this.roots = roots;
    }

    SyncToolSpecification specification(McpTools tools) {
        return tools.spec("find_related", "Find the code that belongs with a file or definition",
                "Given a file (`path`" + (roots.several() ? ", starting with its folder's name" : "") + "), "
                        + "optionally a `line` in it or a `symbol` it defines: the code that uses it (callers, "
                        + "importers, by name and across languages), the definitions it uses, its tests (when the "
                        + "index holds test sources) and its documentation, ranked, one hit per file first. Each hit "
                        + "gives path:startLine-endLine, symbol, kind, score, its relation (used-by, uses, test, doc) "
                        + "and the names that link it; read more with `get`. Use it before changing a definition, "
                        + "to see what depends on it.",
                ToolSchemas.RELATED_INPUT, ToolSchemas.RELATED_OUTPUT, this::call);
    }

    private CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> args = McpTools.arguments(request);
        String path = McpTools.string(args, "path");
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("`path` is empty: give a file path relative to the indexed folder, as "
                    + "search hits show it");
        }
        int line = McpTools.integer(args, "line", 0);
        if (line < 0) {
            throw new IllegalArgumentException("`line` must be at least 1, got " + line);
        }
        String symbol = McpTools.string(args, "symbol");
        int limit = McpTools.integer(args, "limit", RelatedRequest.DEFAULT_LIMIT);
        if (limit < 1 || limit > McpTools.MAX_LIMIT) {
            throw new IllegalArgumentException("`limit` must be between 1 and " + McpTools.MAX_LIMIT + ", got "
                    + limit);
        }
        Set<Relation> relations = EnumSet.noneOf(Relation.class);
        for (String r : McpTools.strings(args, "relations")) {
            relations.add(Relation.fromLabel(r));
        }
        AnswerPacker packer = McpTools.packer(args);
        ServedRoots.Located at = roots.locate("path", path);
        Freshness freshness = at.root().index().refreshIfStale();
        RelatedResult r = at.root().index().related().find(new RelatedRequest(at.relative(), line, symbol, limit,
                relations));
        List<String> notes = new ArrayList<>(RelatedFormatter.notes(r));
        freshness.note().ifPresent(notes::add);
        if (at.root().index().status().phase() == LiveIndex.Phase.INDEXING) {
            notes.add("the index is still being built: related code may be missing; ask again shortly.");
        }
        return answer(path, at.root(), r, notes, packer);
    }

    /**
     * The hits packed as {@code search} packs them, every hit counted as above the threshold, lines matched against
     * the names that link the hits.
     */
    private PackedAnswer pack(ServedRoots.Root root, RelatedResult r, AnswerPacker packer) {
        List<SearchHit> hits = new ArrayList<>(r.hits().size());
        java.util.Set<String> names = new java.util.LinkedHashSet<>(r.names());
        for (RelatedHit rh : r.hits()) {
            hits.add(roots.qualifiedHit(root, rh.hit()));
            names.addAll(rh.names());
        }
        return packer.pack(String.join(" ", names), new SearchResponse(hits, hits.size(), false, Set.of(), false,
                SearchTimings.zero()));
    }

    private CallToolResult answer(String path, ServedRoots.Root root, RelatedResult r, List<String> notes,
            AnswerPacker packer) {
        StringBuilder text = new StringBuilder("Related to ").append(SearchAnswer.clip(path, 200));
        if (!r.targets().isEmpty() && r.targets().size() <= 3) {
            text.append(" (").append(String.join(", ", r.targets())).append(')');
        }
        text.append(":\n");
        List<Map<String, Object>> rows = new ArrayList<>();
        int budget = McpTools.OUTPUT_CAP_CHARS - 4_000;
        int cappedOut = 0;
        int rank = 0;
        PackedAnswer packed = packer == null ? null : pack(root, r, packer);
        if (packed != null) {
            for (PackedAnswer.PackedHit h : packed.hits()) {
                RelatedHit rh = r.hits().get(h.rank() - 1);
                String tag = "  [" + rh.relation().label() + (rh.names().isEmpty() ? "" : ": "
                        + SearchAnswer.clip(String.join(", ", rh.names()), 200)) + "]";
                String shown = PackedFormatter.text(h);
                int eol = shown.indexOf('\n');
                text.append(eol < 0 ? shown + tag : shown.substring(0, eol) + tag + shown.substring(eol))
                        .append("\n\n");
                Map<String, Object> row = SearchAnswer.packedRow(h);
                row.remove("aboveThreshold");
                row.put("relation", rh.relation().label());
                row.put("names", rh.names());
                if (roots.several()) {
                    row.put("root", root.name());
                }
                rows.add(row);
            }
        }
        for (RelatedHit rh : packed != null ? List.<RelatedHit>of() : r.hits()) {
            if (text.length() > budget) {
                cappedOut = r.hits().size() - rank;
                break;
            }
            rank++;
            SearchHit hit = roots.qualifiedHit(root, rh.hit());
            Map<String, String> m = hit.metadata();
            String symbol = m.getOrDefault(ChunkMetadata.SYMBOL, "");
            String kind = m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, "");
            String names = String.join(", ", rh.names());
            List<String> snippet = HitFormatter.snippet(hit.text(), String.join(" ", rh.names())).stream()
                    .filter(l -> !l.isBlank()).limit(SNIPPET_LINES)
                    .map(l -> SearchAnswer.clip(l.strip(), SearchAnswer.SNIPPET_LINE_CHARS)).toList();
            text.append(String.format(Locale.ROOT, "%d. %s  %s%s  score %.2f  [%s%s]%n", rank,
                    SearchAnswer.location(m, hit.id()), symbol, kind.isEmpty() ? "" : " (" + kind + ")", hit.score(),
                    rh.relation().label(), names.isEmpty() ? "" : ": " + SearchAnswer.clip(names, 200)));
            for (String l : snippet) {
                text.append("   ").append(l).append('\n');
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("rank", rank);
            row.put("id", hit.id());
            row.put("path", m.getOrDefault(ChunkMetadata.PATH, hit.id()));
            row.put("startLine", SearchAnswer.intOr(m.get(ChunkMetadata.START_LINE), 1));
            row.put("endLine", SearchAnswer.intOr(m.get(ChunkMetadata.END_LINE),
                    SearchAnswer.intOr(m.get(ChunkMetadata.START_LINE), 1)));
            row.put("symbol", symbol);
            row.put("kind", kind);
            row.put("score", Math.round(hit.score() * 1000) / 1000.0);
            row.put("relation", rh.relation().label());
            row.put("names", rh.names());
            row.put("snippet", String.join("\n", snippet));
            if (roots.several()) {
                row.put("root", root.name());
            }
            rows.add(row);
        }
        if (r.hits().isEmpty()) {
            text.append("Nothing related found: no other indexed file names its definitions, and it uses none "
                    + "defined elsewhere.\n");
        }
        String summary = RelatedFormatter.summary(r) + (packed == null ? "" : "; " + packed.summary());
        text.append(summary).append('.');
        if (cappedOut > 0) {
            notes.add(String.format(Locale.ROOT, "output capped at %,d characters: %d more hits not shown; ask with "
                    + "a lower limit.", McpTools.OUTPUT_CAP_CHARS, cappedOut));
        }
        for (String n : notes) {
            text.append("\nNote: ").append(n);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("path", SearchAnswer.clip(path, 200));
        s.put("targets", r.targets());
        s.put("names", r.names());
        s.put("returned", rows.size());
        s.put("totalHits", r.totalHits());
        s.put("totalFiles", r.totalFiles());
        if (packed != null) {
            s.put("budget", PackedFormatter.packing(packed));
        }
        s.put("summary", summary);
        s.put("notes", notes);
        s.put("hits", rows);
        return CallToolResult.builder().addTextContent(McpTools.visible(text.toString())).structuredContent(s)
                .isError(false).build();
    }
}
