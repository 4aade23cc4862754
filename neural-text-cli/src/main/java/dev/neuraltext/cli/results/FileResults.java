package dev.neuraltext.cli.results;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.internal.ControlChars;
import dev.neuraltext.retrieve.FileGroups;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Results grouped by file ({@code neural-text search --group-by file}): the default search, deep enough for several
 * files, grouped by {@link FileGroups} into files ranked by their evidence, each with its best spans. Shared by the
 * MCP server's {@code search} tool ({@code groupBy: "file"}), so that both rank files the same way. Stateless.
 */
public final class FileResults {

    /** Chunks fetched per file asked for, so that a file's evidence sees its other chunks. */
    static final int CHUNKS_PER_FILE = 5;
    /** At least this many chunks are fetched (the ranking stage's default depth). */
    static final int MIN_CHUNKS = 50;

    private FileResults() {
    }

    /** The request whose hits {@link #group} turns into {@code limit} files. */
    public static SearchRequest request(SearchRequest chunkRequest) {
        return chunkRequest.toBuilder().limit(Math.max(MIN_CHUNKS, chunkRequest.limit() * CHUNKS_PER_FILE))
                .adaptive(false).build();
    }

    /** The first {@code limit} files of {@code response}. */
    public static List<FileGroups.FileHit> group(SearchResponse response, int limit) {
        return FileGroups.group(response.hits(), limit, FileGroups.DEFAULT_SPANS_PER_FILE);
    }

    /** Prints {@code files} for people: each file's evidence and best spans, then the summary line. */
    public static void print(PrintStream out, String query, List<FileGroups.FileHit> files, SearchResponse response) {
        int rank = 0;
        for (FileGroups.FileHit f : files) {
            rank++;
            out.printf(Locale.ROOT, "%2d. %s  evidence %.3f (%d matching chunk%s)%n", rank,
                    ControlChars.escapeLine(f.path()), f.evidence(), f.matched(), f.matched() == 1 ? "" : "s");
            for (SearchHit h : f.hits()) {
                Map<String, String> m = h.metadata();
                out.printf(Locale.ROOT, "    %s-%s  %s  score %.3f%n", m.getOrDefault(ChunkMetadata.START_LINE, "?"),
                        m.getOrDefault(ChunkMetadata.END_LINE, "?"),
                        ControlChars.escapeLine(m.getOrDefault(ChunkMetadata.SYMBOL, "")), h.score());
                if (!h.rankSignals().isEmpty()) {
                    out.println("      ranked by " + HitFormatter.signals(h.rankSignals()));
                }
            }
        }
        if (files.isEmpty()) {
            out.println("No results for \"" + ControlChars.escapeLine(query) + "\".");
        }
        out.printf(Locale.ROOT, "%d file%s  [%s; %.0f ms]%n", files.size(), files.size() == 1 ? "" : "s",
                HitFormatter.legsLabel(response), response.timings().total().toNanos() / 1e6);
    }

    /** The files as JSON-ready maps: path, evidence, matched, spans (start, end, symbol, score, signals). */
    public static List<Map<String, Object>> files(List<FileGroups.FileHit> files) {
        List<Map<String, Object>> out = new ArrayList<>();
        int rank = 0;
        for (FileGroups.FileHit f : files) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rank", ++rank);
            m.put("path", f.path());
            m.put("evidence", f.evidence());
            m.put("matchingChunks", f.matched());
            List<Map<String, Object>> spans = new ArrayList<>();
            for (SearchHit h : f.hits()) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("id", h.id());
                s.put("startLine", h.metadata().get(ChunkMetadata.START_LINE));
                s.put("endLine", h.metadata().get(ChunkMetadata.END_LINE));
                s.put("symbol", h.metadata().get(ChunkMetadata.SYMBOL));
                s.put("score", h.score());
                s.put("rankSignals", h.rankSignals());
                spans.add(s);
            }
            m.put("spans", spans);
            out.add(m);
        }
        return out;
    }

    /** The JSON document of {@code search --group-by file --json}; field order and names are part of its contract. */
    public static Map<String, Object> json(String query, String index, List<FileGroups.FileHit> files) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("query", query);
        root.put("index", index);
        root.put("groupBy", "file");
        root.put("files", files(files));
        return root;
    }
}
