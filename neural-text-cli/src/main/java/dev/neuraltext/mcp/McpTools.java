package dev.neuraltext.mcp;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.path.PathGlob;
import dev.neuraltext.cli.results.FileResults;
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
    static final int DEFAULT_LIMIT = 8;
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

    private final LiveIndex index;
    private final McpJsonMapper json;

    McpTools(LiveIndex index, McpJsonMapper json) {
        this.index = index;
        this.json = json;
    }

    List<SyncToolSpecification> specifications() {
        return List.of(
                spec("search", "Search the indexed code and docs",
                        "Hybrid search (keywords that understand identifiers such as RetryPolicy or backoffDelay, plus "
                                + "meaning) over the files of " + index.root().getFileName() + ". Ask with an identifier "
                                + "or a sentence. Each hit gives path:startLine-endLine, symbol, kind, score and a "
                                + "snippet; read more with `get`. The last line says how many results are above the "
                                + "relevance threshold: when it says to call again with a higher limit, do so for the "
                                + "rest. When it says no result is above the threshold, the code you look for is "
                                + "probably not there: say so rather than guess. A note says when the results may not "
                                + "show the latest changes (an update still running). Answers stay under "
                                + OUTPUT_CAP_CHARS + " characters and say when they were cut.",
                        SEARCH_INPUT, SEARCH_OUTPUT, this::search),
                spec("get", "Read a chunk or a file's lines",
                        "Read from the indexed folder: either a chunk by its `id` (from a search hit), or the lines "
                                + "`startLine`..`endLine` (1-based, inclusive, at most " + MAX_LINES + ") of the file "
                                + "at `path`, relative to the folder. Paths outside the folder are refused.",
                        GET_INPUT, GET_OUTPUT, this::get),
                spec("status", "What the index holds",
                        "The index: files, chunks per kind, retrieval legs and how much of it has dense vectors, "
                                + "the dense model, when it was last updated, and the progress of a build. With "
                                + "`digest`: checksums of the index's content, equal for two indexes that hold the "
                                + "same chunks (ids, text, metadata), files and dense vectors.",
                        STATUS_INPUT, STATUS_OUTPUT, this::status),
                spec("reindex", "Update the index now",
                        "Re-index the files that changed since the last update (searches do this by themselves "
                                + "every few seconds) and say which files were added, modified and deleted.",
                        EMPTY_INPUT, REINDEX_OUTPUT, this::reindex));
    }

    private SyncToolSpecification spec(String name, String title, String description, String input, String output,
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
        if (path != null && !path.isBlank()) {
            List<String> matching = index.paths().stream().filter(pathMatcher(path)).toList();
            if (matching.isEmpty()) {
                throw new IllegalArgumentException("no indexed file matches `path` '" + path + "': give a folder "
                        + "such as src/main or a glob such as *.java or docs/*.md");
            }
            filters.add(PayloadFilter.matchAny(ChunkMetadata.PATH, matching.toArray(String[]::new)));
        }
        Set<Leg> legs = EnumSet.noneOf(Leg.class);
        for (String l : strings(args, "legs")) {
            legs.add(Leg.fromLabel(l));
        }
        Freshness freshness = index.refreshIfStale();
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
            return FileAnswer.of(query.strip(), limit, index.search(FileResults.request(chunks), ranked),
                    index.status(), legs, freshness);
        }
        SearchResponse response = index.search(chunks, ranked);
        SearchAnswer answer = SearchAnswer.of(query.strip(), limit, response, index.status(), legs, freshness);
        return CallToolResult.builder().addTextContent(answer.text()).structuredContent(answer.structured())
                .isError(false).build();
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
            ChunkInput c = index.chunk(id).orElseThrow(() -> new IllegalArgumentException("no chunk with id '"
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
        Path file = RootFiles.resolve(index.root(), path);
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
        LiveIndex.Status s = index.status();
        String text = StatusAnswer.text(s);
        Map<String, Object> structured = StatusAnswer.structured(s);
        if (Boolean.TRUE.equals(digest)) {
            IndexDigest d = index.digest();
            text += "\n" + d.describe();
            structured.put("digest", d.structured());
        }
        return CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(false).build();
    }

    private CallToolResult reindex(McpSyncServerExchange exchange, CallToolRequest request) {
        Object token = request.meta() == null ? null : request.meta().get("progressToken");
        long[] last = {0};
        IndexChange c = index.reindex(token == null ? null : (IndexUpdate.Progress p) -> {
            long now = System.nanoTime();
            if (now - last[0] > 250_000_000L || p.filesDone() == p.filesToIndex()) {
                last[0] = now;
                exchange.progressNotification(new McpSchema.ProgressNotification(token, p.filesDone(),
                        (double) p.filesToIndex(), p.filesDone() + " of " + p.filesToIndex() + " files re-indexed"));
            }
        });
        IndexUpdate u = c.update();
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%d added, %d modified, %d deleted, %d unchanged files; %d chunks indexed, %d deleted (%.1f s).",
                u.filesAdded(), u.filesModified(), u.filesDeleted(), u.filesUnchanged(), u.chunksUpserted(),
                u.chunksDeleted(), u.elapsed().toNanos() / 1e9));
        appendPaths(text, "added", c.added());
        appendPaths(text, "modified", c.modified());
        appendPaths(text, "deleted", c.deleted());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("added", c.added());
        out.put("modified", c.modified());
        out.put("deleted", c.deleted());
        out.put("unchanged", u.filesUnchanged());
        out.put("chunksIndexed", u.chunksUpserted());
        out.put("chunksDeleted", u.chunksDeleted());
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

    private static Map<String, Object> arguments(CallToolRequest request) {
        return request.arguments() == null ? Map.of() : request.arguments();
    }

    private static String string(Map<String, Object> args, String name) {
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

    private static int integer(Map<String, Object> args, String name, int fallback) {
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

    private static List<String> strings(Map<String, Object> args, String name) {
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

    // ------------------------------------------------------------------ schemas (JSON Schema 2020-12)

    private static final String EMPTY_INPUT = """
            {"type": "object", "properties": {}, "additionalProperties": false}""";

    private static final String STATUS_INPUT = """
            {"type": "object", "properties": {
              "digest": {"type": "boolean", "default": false,
                "description": "Also give checksums of the index's content (chunks, files, dense vectors), to compare with another index of the same folder."}
            }, "additionalProperties": false}""";

    private static final String SEARCH_INPUT = """
            {
              "type": "object",
              "properties": {
                "query": {"type": "string", "minLength": 1,
                  "description": "An identifier (RetryPolicy, backoffDelay, @Retryable) or a question in words."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 8,
                  "description": "Hits to return at least (more when scores stay close)."},
                "filter": {"type": "string",
                  "description": "Metadata filter, e.g. type == 'code' and symbolType == 'method' and not path ~ 'test'. Keys: path, language, package, className, symbol, symbolType, startLine, endLine, type, tags."},
                "path": {"type": "string",
                  "description": "Only these files: a folder (src/main) or a glob as in .gitignore (*.md at any depth, docs/*.md, **/*Test.java)."},
                "kind": {"type": "string", "enum": ["code", "doc", "type", "method"],
                  "description": "code or doc chunks, or only type or method (and constructor) chunks."},
                "legs": {"type": "array", "items": {"type": "string", "enum": ["bm25", "dense", "sparse"]},
                  "uniqueItems": true, "description": "Retrieval legs to run (default: every leg the index has)."},
                "groupBy": {"type": "string", "enum": ["chunk", "file"], "default": "chunk",
                  "description": "file: `limit` files ranked by their evidence, each with its best spans (for opening the file next)."},
                "ranking": {"type": "string", "enum": ["whole-repository", "off"], "default": "whole-repository",
                  "description": "whole-repository: definitions, the file the query names and code first, one chunk per file before a second; off: the fused order as is."}
              },
              "required": ["query"],
              "additionalProperties": false
            }""";

    private static final String SEARCH_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "query": {"type": "string"},
                "legs": {"type": "array", "items": {"type": "string"}},
                "returned": {"type": "integer"},
                "aboveThreshold": {"type": "integer"},
                "extended": {"type": "boolean"},
                "summary": {"type": "string"},
                "indexComplete": {"type": "boolean"},
                "denseCoverage": {"type": "object", "properties": {
                  "chunks": {"type": "integer"}, "withDense": {"type": "integer"}}},
                "freshness": {"type": "object", "properties": {
                  "checkedNow": {"type": "boolean"}, "checkedMillisAgo": {"type": "integer"},
                  "checkIntervalMillis": {"type": "integer"}, "updateRunning": {"type": "boolean"},
                  "filesDone": {"type": "integer"}, "filesToIndex": {"type": "integer"},
                  "filesChanged": {"type": "integer"}}},
                "outputCapChars": {"type": "integer"},
                "cappedHits": {"type": "integer"},
                "notes": {"type": "array", "items": {"type": "string"}},
                "hits": {"type": "array", "items": {
                  "type": "object",
                  "properties": {
                    "rank": {"type": "integer"},
                    "id": {"type": "string"},
                    "path": {"type": "string"},
                    "startLine": {"type": "integer"},
                    "endLine": {"type": "integer"},
                    "symbol": {"type": "string"},
                    "kind": {"type": "string"},
                    "score": {"type": "number"},
                    "aboveThreshold": {"type": "boolean"},
                    "snippet": {"type": "string"}
                  },
                  "required": ["rank", "id", "path", "startLine", "endLine", "score", "aboveThreshold"]
                }},
                "files": {"type": "array", "items": {"type": "object", "properties": {
                  "rank": {"type": "integer"}, "path": {"type": "string"}, "evidence": {"type": "number"},
                  "matchingChunks": {"type": "integer"}, "spans": {"type": "array"}}}}
              },
              "required": ["query", "returned", "aboveThreshold", "summary", "indexComplete", "hits"]
            }""";

    private static final String GET_INPUT = """
            {
              "type": "object",
              "properties": {
                "id": {"type": "string", "description": "A chunk id from a search hit."},
                "path": {"type": "string", "description": "A file path relative to the indexed folder."},
                "startLine": {"type": "integer", "minimum": 1, "description": "First line, 1-based."},
                "endLine": {"type": "integer", "minimum": 1, "description": "Last line, inclusive."}
              },
              "additionalProperties": false
            }""";

    private static final String GET_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "id": {"type": "string"},
                "path": {"type": "string"},
                "startLine": {"type": "integer"},
                "endLine": {"type": "integer"},
                "totalLines": {"type": "integer"},
                "capped": {"type": "boolean"},
                "text": {"type": "string"}
              },
              "required": ["path", "startLine", "endLine", "text"]
            }""";

    private static final String STATUS_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "root": {"type": "string"},
                "index": {"type": "string"},
                "writer": {"type": "boolean"},
                "phase": {"type": "string", "enum": ["indexing", "embedding", "ready"]},
                "updating": {"type": "boolean", "description": "an update of changed files is running"},
                "filesDone": {"type": "integer"},
                "filesToIndex": {"type": "integer"},
                "files": {"type": "integer"},
                "chunks": {"type": "integer"},
                "chunksByKind": {"type": "object", "additionalProperties": {"type": "integer"}},
                "legs": {"type": "array", "items": {"type": "string"}},
                "denseCoverage": {"type": "object", "properties": {
                  "chunks": {"type": "integer"}, "withDense": {"type": "integer"}}},
                "denseModel": {"type": "string"},
                "denseLoaded": {"type": "boolean", "description": "whether queries are embedded (the dense leg runs)"},
                "lastUpdated": {"type": ["string", "null"]},
                "lastSaved": {"type": ["string", "null"]},
                "heapUsedBytes": {"type": "integer", "description": "the server's Java heap in use"},
                "heapMaxBytes": {"type": "integer", "description": "the most heap the server may use (-Xmx)"},
                "digest": {"type": "object", "description": "with `digest`: content checksums", "properties": {
                  "files": {"type": "integer"}, "chunks": {"type": "integer"}, "withDense": {"type": "integer"},
                  "lexical": {"type": "string"}, "content": {"type": "string"}, "vectors": {"type": "string"}, "manifest": {"type": "string"}}}
              },
              "required": ["root", "phase", "files", "chunks", "legs", "denseCoverage"]
            }""";

    private static final String REINDEX_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "added": {"type": "array", "items": {"type": "string"}},
                "modified": {"type": "array", "items": {"type": "string"}},
                "deleted": {"type": "array", "items": {"type": "string"}},
                "unchanged": {"type": "integer"},
                "chunksIndexed": {"type": "integer"},
                "chunksDeleted": {"type": "integer"}
              },
              "required": ["added", "modified", "deleted", "unchanged"]
            }""";
}
