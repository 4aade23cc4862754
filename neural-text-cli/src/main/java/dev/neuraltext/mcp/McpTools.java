package dev.neuraltext.mcp;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.path.PathGlob;
import dev.neuraltext.cli.results.FileResults;
import dev.neuraltext.search.AnswerPacker;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four tools of {@code neural-text mcp} ({@code search}, {@code get}, {@code status}, {@code reindex}) over a
 * {@link LiveIndex}: their descriptions and JSON Schemas (2020-12), and their handlers. A caller mistake (an empty
 * query, a malformed filter, a path outside the root) is a tool error ({@code isError}) whose text says what to change,
 * never a protocol failure. Thread-safe: the handlers share only the live index.
 */
final class McpTools {

    private static final Logger LOG = LoggerFactory.getLogger(McpTools.class);

    /** Default hits per search. */
    static final int DEFAULT_LIMIT = 10;
    /**
     * The largest token budget of one answer: 20,000 tokens, the {@link #OUTPUT_CAP_CHARS} characters an answer may
     * carry.
     */
    static final int MAX_BUDGET = 20_000;
    /** The most hits one search returns. */
    static final int MAX_LIMIT = 50;
    /** The most lines one {@code get} returns. */
    static final int MAX_LINES = 400;
    /**
     * The most characters of text one answer carries: 80,000, about 20k tokens, under the 25k tokens assistants let
     * a tool return. A longer answer is cut (hits left out, lines not returned) and says so, with how to get the rest.
     */
    static final int OUTPUT_CAP_CHARS = 80_000;
    /**
     * The longest query, filter, path or id accepted: 16,384 characters (a long stack trace fits; a pasted file does
     * not).
     */
    static final int MAX_QUERY_CHARS = 16_384;
    /** Hits listed when nothing is above the relevance threshold. */
    static final int BELOW_THRESHOLD_SHOWN = 3;

    private final ServedRoots roots;
    private final McpJsonMapper json;

    McpTools(LiveIndex index, McpJsonMapper json) {
        this(ServedRoots.single(index), json);
    }

    McpTools(ServedRoots roots, McpJsonMapper json) {
        this.roots = roots;
        this.json = json;
    }

    /** What the tools' descriptions call the served folders. */
    private String served() {
        return roots.several() ? "the folders " + String.join(", ", roots.names()) + " (paths start with the folder's "
                + "name)" : "the files of " + roots.first().name();
    }

    List<SyncToolSpecification> specifications() {
        return List.of(
                spec("search", "Search the indexed code and docs",
                        "Hybrid search (keywords that understand identifiers such as RetryPolicy or backoffDelay, plus "
                                + "meaning) over " + served() + ". Ask with an identifier "
                                + "or a sentence. Each hit gives path:startLine-endLine, symbol, kind, score and its code, "
                                + "packed into a token budget (default " + AnswerPacker.DEFAULT_BUDGET + "): the best "
                                + "hit of each file first, long definitions trimmed to their doc comment, signature and "
                                + "the lines that match, elided lines marked with their numbers; read the rest with "
                                + "`get`. `budget` 0 gives one line and a short snippet per hit. The last line says "
                                + "what was left out and how many results are above the "
                                + "relevance threshold: when it says to call again with a higher limit, do so for the "
                                + "rest. When it says no result is above the threshold, the code you look for is "
                                + "probably not there: say so rather than guess. A note says when the results may not "
                                + "show the latest changes (an update still running). Answers stay under "
                                + OUTPUT_CAP_CHARS + " characters and say when they were cut.",
                        ToolSchemas.SEARCH_INPUT, ToolSchemas.SEARCH_OUTPUT, this::search),
                spec("get", "Read a chunk or a file's lines",
                        "Read from the indexed folder: either a chunk by its `id` (from a search hit), or the lines "
                                + "`startLine`..`endLine` (1-based, inclusive, at most " + MAX_LINES + ") of the file "
                                + "at `path`, relative to the folder" + (roots.several() ? " and starting with the "
                                + "folder's name (as search hits show it)" : "") + ". Paths outside the folder are "
                                + "refused.",
                        ToolSchemas.GET_INPUT, ToolSchemas.GET_OUTPUT, this::get),
                spec("status", "What the index holds",
                        "The index: files, chunks per kind, retrieval legs and how much of it has dense vectors, "
                                + "the dense model, when it was last updated, and the progress of a build. With "
                                + "`digest`: checksums of the index's content, equal for two indexes that hold the "
                                + "same chunks (ids, text, metadata), files and dense vectors.",
                        ToolSchemas.STATUS_INPUT, ToolSchemas.STATUS_OUTPUT, this::status),
                spec("reindex", "Update the index now",
                        "Re-index the files that changed since the last update (searches do this by themselves "
                                + "every few seconds) and say which files were added, modified and deleted.",
                        ToolSchemas.EMPTY_INPUT, ToolSchemas.REINDEX_OUTPUT, this::reindex),
                new RelatedTool(roots).specification(this));
    }

    SyncToolSpecification spec(String name, String title, String description, String input, String output,
            BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).title(title).description(description)
                .inputSchema(json, input).outputSchema(json, output).build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            try {
                return handler.apply(exchange, request);
            } catch (IllegalArgumentException e) {
                return error(e.getMessage());
            } catch (NeuralTextException e) {
                LOG.warn("tool {} failed: {}", name, e.getMessage());
                return error(name + " failed: " + e.getMessage());
            } catch (RuntimeException e) {
                LOG.error("tool {} failed", name, e);
                return error(name + " failed unexpectedly: " + e);
            }
        }).build();
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(visible(SearchAnswer.clip(message, OUTPUT_CAP_CHARS)))
                .isError(true).build();
    }

    /** Control characters an argument brought into a message (a NUL in a path), written as escapes. */
    static String visible(String message) {
        StringBuilder sb = new StringBuilder(message.length());
        message.chars().forEach(c -> {
            if (c < 0x20 && c != '\n' && c != '\t' || c == 0x7f) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", c));
            } else {
                sb.append((char) c);
            }
        });
        return sb.toString();
    }

    // ------------------------------------------------------------------ search

    private CallToolResult search(McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> args = arguments(request);
        String query = string(args, "query");
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("`query` is empty: give an identifier (RetryPolicy) or a sentence "
                    + "(how is the delay between attempts computed)");
        }
        int limit = integer(args, "limit", DEFAULT_LIMIT);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("`limit` must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        AnswerPacker packer = packer(args);
        List<PayloadFilter> filters = new ArrayList<>();
        String filter = string(args, "filter");
        if (filter != null && !filter.isBlank()) {
            try {
                filters.add(PayloadFilter.parse(filter));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("malformed `filter` " + SearchAnswer.clip(filter, 200) + ": "
                        + SearchAnswer.clip(e.getMessage(), 400)
                        + ". Example: type == 'code' and symbolType == 'method'");
            }
        }
        String kind = string(args, "kind");
        if (kind != null) {
            filters.add(kindFilter(kind));
        }
        String path = string(args, "path");
        Set<Leg> legs = EnumSet.noneOf(Leg.class);
        for (String l : strings(args, "legs")) {
            legs.add(Leg.fromLabel(l));
        }
        PayloadFilter combined = PayloadFilter.allOf(filters);
        String groupBy = string(args, "groupBy");
        if (groupBy != null && !groupBy.equals("chunk") && !groupBy.equals("file")) {
            throw new IllegalArgumentException("`groupBy` must be chunk or file, got '"
                    + SearchAnswer.clip(groupBy, 200) + "'");
        }
        String ranking = string(args, "ranking");
        if (ranking != null && !ranking.equals("whole-repository") && !ranking.equals("off")) {
            throw new IllegalArgumentException("`ranking` must be whole-repository or off, got '"
                    + SearchAnswer.clip(ranking, 200) + "'");
        }
        boolean ranked = !"off".equals(ranking);
        SearchRequest chunks = SearchRequest.builder(query.strip()).limit(limit).filter(combined).legs(legs).build();
        if ("file".equals(groupBy)) {
            ServedRoots.Searched s = roots.search(FileResults.request(chunks), path, ranked);
            return FileAnswer.of(query.strip(), limit, s.response(), s.status(), legs, s.freshness());
        }
        ServedRoots.Searched s = roots.search(chunks, path, ranked);
        SearchAnswer answer = packer == null
                ? SearchAnswer.of(query.strip(), limit, s.response(), s.status(), legs, s.freshness())
                : SearchAnswer.packed(query.strip(), s.response(), s.status(), legs, s.freshness(), packer);
        return CallToolResult.builder().addTextContent(answer.text()).structuredContent(withRoots(answer.structured()))
                .isError(false).build();
    }

    /** The {@code budget} argument's packer (default {@link AnswerPacker#DEFAULT_BUDGET}), or null for 0. */
    static AnswerPacker packer(Map<String, Object> args) {
        int budget = integer(args, "budget", AnswerPacker.DEFAULT_BUDGET);
        if (budget != 0 && (budget < AnswerPacker.MIN_BUDGET || budget > MAX_BUDGET)) {
            throw new IllegalArgumentException("`budget` must be 0 (no packing: a short snippet per hit) or between "
                    + AnswerPacker.MIN_BUDGET + " and " + MAX_BUDGET + " tokens, got " + budget);
        }
        return budget == 0 ? null : AnswerPacker.ofBudget(budget);
    }

    /** With several roots, each structured hit names its root (its path's first segment) as {@code root}. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> withRoots(Map<String, Object> structured) {
        if (roots.several() && structured.get("hits") instanceof List<?> hits) {
            for (Object h : hits) {
                Map<String, Object> row = (Map<String, Object>) h;
                String p = String.valueOf(row.get("path"));
                row.put("root", p.substring(0, Math.max(0, p.indexOf('/'))));
            }
        }
        return structured;
    }

    private static PayloadFilter kindFilter(String kind) {
        return switch (kind) {
            case "code" -> PayloadFilter.matchKeyword(ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE);
            case "doc" -> PayloadFilter.matchKeyword(ChunkMetadata.TYPE, ChunkMetadata.TYPE_DOC);
            case "type" -> PayloadFilter.matchKeyword(ChunkMetadata.SYMBOL_TYPE, "type");
            case "method" -> PayloadFilter.matchAny(ChunkMetadata.SYMBOL_TYPE, "method", "constructor");
            default -> throw new IllegalArgumentException("`kind` must be code, doc, type or method, got '" + kind + "'");
        };
    }

    /**
     * The files a {@code path} argument takes: a {@link PathGlob}, as {@code --include} reads it ({@code src/main}
     * is that folder, {@code *.md} a Markdown file at any depth, {@code **}{@code /*Test.java}, {@code docs/*.md}).
     */
    static java.util.function.Predicate<String> pathMatcher(String pattern) {
        PathGlob glob;
        try {
            glob = PathGlob.of(pattern);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("`path` '" + pattern + "' is not a valid glob: " + e.getMessage());
        }
        return glob::matches;
    }

    // ------------------------------------------------------------------ get

    private CallToolResult get(McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> args = arguments(request);
        String id = string(args, "id");
        String path = string(args, "path");
        if ((id == null) == (path == null)) {
            throw new IllegalArgumentException("give either `id` (a chunk id from a search hit) or `path` with "
                    + "`startLine` and `endLine`, not " + (id == null ? "neither" : "both"));
        }
        if (id != null) {
            ChunkInput c = roots.chunk(id).orElseThrow(() -> new IllegalArgumentException("no chunk with id '"
                    + SearchAnswer.clip(id, 200) + "' in the index (it may have changed since the search: search "
                    + "again)"));
            Map<String, Object> out = new LinkedHashMap<>();
            Map<String, String> m = c.metadata();
            out.put("id", c.id());
            out.put("path", m.getOrDefault(ChunkMetadata.PATH, ""));
            out.put("startLine", SearchAnswer.intOr(m.get(ChunkMetadata.START_LINE), 1));
            out.put("endLine", SearchAnswer.intOr(m.get(ChunkMetadata.END_LINE), 1));
            String text = c.text().length() <= OUTPUT_CAP_CHARS ? c.text() : c.text().substring(0, OUTPUT_CAP_CHARS);
            out.put("text", text);
            String header = SearchAnswer.location(m, c.id()) + "  " + m.getOrDefault(ChunkMetadata.SYMBOL, "");
            if (text.length() < c.text().length()) {
                out.put("capped", true);
                header += String.format(Locale.ROOT, " (output capped at %,d of the chunk's %,d characters: read the "
                        + "rest with `path` and line numbers)", OUTPUT_CAP_CHARS, c.text().length());
            }
            return CallToolResult.builder().addTextContent(header).addTextContent(text).structuredContent(out)
                    .isError(false).build();
        }
        int start = integer(args, "startLine", 1);
        int end = integer(args, "endLine", start + 99);
        if (start < 1 || end < start) {
            throw new IllegalArgumentException("need 1 <= startLine <= endLine, got startLine " + start + ", endLine "
                    + end);
        }
        if (end - start + 1 > MAX_LINES) {
            throw new IllegalArgumentException("at most " + MAX_LINES + " lines per call, asked for " + (end - start + 1)
                    + ": read the file in parts");
        }
        ServedRoots.Located located = roots.locate("path", path);
        Path file = RootFiles.resolve(located.root().index().root(), located.relative());
        FileLines.Read read;
        try {
            read = FileLines.read(file, start, end, OUTPUT_CAP_CHARS);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("'" + path + "' is not UTF-8 text");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read '" + path + "': " + e.getMessage());
        }
        if (start > read.totalLines()) {
            throw new IllegalArgumentException("'" + path + "' has " + read.totalLines() + " lines, startLine " + start
                    + " is past its end");
        }
        int last = read.lastLine();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("path", path);
        out.put("startLine", start);
        out.put("endLine", last);
        out.put("totalLines", read.totalLines());
        out.put("text", read.text());
        StringBuilder header = new StringBuilder(path + ":" + start + "-" + last + " (of " + read.totalLines()
                + " lines");
        if (read.capped()) {
            out.put("capped", true);
            header.append(String.format(Locale.ROOT, "; output capped at %,d characters: %s", OUTPUT_CAP_CHARS,
                    read.lineCut() ? "line " + last + " is cut; it is too long to return whole"
                            : "continue with startLine " + (last + 1)));
        } else if (last < end) {
            header.append("; the file ends at line ").append(last);
        }
        header.append(')');
        return CallToolResult.builder().addTextContent(header.toString()).addTextContent(read.text())
                .structuredContent(out).isError(false).build();
    }

    // ------------------------------------------------------------------ status, reindex

    private CallToolResult status(McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> args = arguments(request);
        Object digest = args.get("digest");
        if (digest != null && !(digest instanceof Boolean)) {
            throw new IllegalArgumentException("`digest` must be true or false, got " + digest);
        }
        StringBuilder text = new StringBuilder();
        Map<String, Object> structured = StatusAnswer.structured(roots.status());
        List<Map<String, Object>> each = new ArrayList<>();
        for (ServedRoots.Root r : roots.all()) {
            Map<String, Object> one = StatusAnswer.structured(r.index().status());
            if (roots.several()) {
                text.append(text.length() == 0 ? "" : "\n\n").append("Root ").append(r.name()).append(":\n");
            }
            text.append(StatusAnswer.text(r.index().status()));
            if (Boolean.TRUE.equals(digest)) {
                IndexDigest d = r.index().digest();
                text.append("\n").append(d.describe());
                one.put("digest", d.structured());
            }
            one.put("name", r.name());
            each.add(one);
        }
        if (!roots.several()) {
            structured = each.get(0);
            structured.remove("name");
        } else {
            structured.put("roots", each);
        }
        return CallToolResult.builder().addTextContent(text.toString()).structuredContent(structured).isError(false)
                .build();
    }

    private CallToolResult reindex(McpSyncServerExchange exchange, CallToolRequest request) {
        Object token = request.meta() == null ? null : request.meta().get("progressToken");
        long[] last = {0};
        List<String> added = new ArrayList<>();
        List<String> modified = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        int[] sums = new int[5]; // added, modified, deleted, unchanged files; chunks indexed (deleted in 5)
        long chunksDeleted = 0;
        double seconds = 0;
        for (ServedRoots.Root r : roots.all()) {
            IndexChange c = r.index().reindex(token == null ? null : (IndexUpdate.Progress p) -> {
                long now = System.nanoTime();
                if (now - last[0] > 250_000_000L || p.filesDone() == p.filesToIndex()) {
                    last[0] = now;
                    exchange.progressNotification(new McpSchema.ProgressNotification(token, p.filesDone(),
                            (double) p.filesToIndex(), p.filesDone() + " of " + p.filesToIndex() + " files re-indexed"
                            + (roots.several() ? " in " + r.name() : "")));
                }
            });
            IndexUpdate u = c.update();
            sums[0] += u.filesAdded();
            sums[1] += u.filesModified();
            sums[2] += u.filesDeleted();
            sums[3] += u.filesUnchanged();
            sums[4] += u.chunksUpserted();
            chunksDeleted += u.chunksDeleted();
            seconds += u.elapsed().toNanos() / 1e9;
            c.added().forEach(f -> added.add(roots.qualified(r, f)));
            c.modified().forEach(f -> modified.add(roots.qualified(r, f)));
            c.deleted().forEach(f -> deleted.add(roots.qualified(r, f)));
        }
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%d added, %d modified, %d deleted, %d unchanged files; %d chunks indexed, %d deleted (%.1f s).",
                sums[0], sums[1], sums[2], sums[3], sums[4], chunksDeleted, seconds));
        appendPaths(text, "added", added);
        appendPaths(text, "modified", modified);
        appendPaths(text, "deleted", deleted);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("added", added);
        out.put("modified", modified);
        out.put("deleted", deleted);
        out.put("unchanged", sums[3]);
        out.put("chunksIndexed", sums[4]);
        out.put("chunksDeleted", chunksDeleted);
        return CallToolResult.builder().addTextContent(text.toString()).structuredContent(out).isError(false).build();
    }

    private static void appendPaths(StringBuilder text, String what, List<String> paths) {
        if (paths.isEmpty()) {
            return;
        }
        int shown = Math.min(20, paths.size());
        text.append('\n').append(what).append(": ").append(String.join(", ", paths.subList(0, shown)));
        if (shown < paths.size()) {
            text.append(" and ").append(paths.size() - shown).append(" more");
        }
    }

    // ------------------------------------------------------------------ arguments

    static Map<String, Object> arguments(CallToolRequest request) {
        return request.arguments() == null ? Map.of() : request.arguments();
    }

    static String string(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException("`" + name + "` must be a string, got " + SearchAnswer.clip(
                    String.valueOf(v), 200));
        }
        if (s.length() > MAX_QUERY_CHARS) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "`%s` has %,d characters, at most %,d are "
                    + "accepted", name, s.length(), MAX_QUERY_CHARS) + (name.equals("query") ? ": search with the "
                    + "identifiers or the sentence that matter" : ""));
        }
        return s;
    }

    static int integer(Map<String, Object> args, String name, int fallback) {
        Object v = args.get(name);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
                && Math.abs(n.doubleValue()) < Integer.MAX_VALUE) {
            return n.intValue();
        }
        throw new IllegalArgumentException("`" + name + "` must be an integer, got " + v);
    }

    static List<String> strings(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw new IllegalArgumentException("`" + name + "` must be a list of strings, got " + v);
        }
        return list.stream().map(String.class::cast).toList();
    }

    /** Paths a client may read: relative, inside the root, also after following symbolic links. */
    static final class RootFiles {
        private RootFiles() {
        }

        static Path resolve(Path root, String path) {
            if (path.isBlank()) {
                throw new IllegalArgumentException("`path` is empty: give a file path relative to the indexed folder");
            }
            Path rel;
            try {
                rel = Path.of(path);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("`path` '" + path + "' is not a valid path: " + e.getReason());
            }
            Path file = root.resolve(rel).normalize();
            if (rel.isAbsolute() || !file.startsWith(root)) {
                throw new IllegalArgumentException("refused `path` '" + path + "': it is outside the indexed folder; "
                        + "give a path relative to it");
            }
            try {
                Path real = file.toRealPath();
                if (!real.startsWith(root.toRealPath())) {
                    throw new IllegalArgumentException("refused `path` '" + path + "': a symbolic link leads outside "
                            + "the indexed folder");
                }
                if (!Files.isRegularFile(real)) {
                    throw new IllegalArgumentException("'" + path + "' is not a file");
                }
                return real;
            } catch (IOException e) {
                throw new IllegalArgumentException("no file '" + path + "' in the indexed folder");
            }
        }
    }
}
