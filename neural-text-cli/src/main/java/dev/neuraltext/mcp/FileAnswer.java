package dev.neuraltext.mcp;

import dev.neuraltext.cli.results.FileResults;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.retrieve.FileGroups;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code search} tool's answer with {@code groupBy: "file"}: the files {@link FileResults} ranks (the same grouping
 * as {@code neural-text search --group-by file}), listed first in the text, and in the structured content as
 * {@code files} beside the usual {@code hits} (each file's best spans, in file order).
 */
final class FileAnswer {

    private FileAnswer() {
    }

    static CallToolResult of(String query, int limit, SearchResponse response, LiveIndex.Status status,
            Set<Leg> requested, Freshness freshness) {
        List<FileGroups.FileHit> files = FileResults.group(response, limit);
        List<SearchHit> spans = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int rank = 0;
        for (FileGroups.FileHit f : files) {
            text.append(String.format(Locale.ROOT, "%d. %s  evidence %.2f, %d matching chunk%s%n", ++rank, f.path(),
                    f.evidence(), f.matched(), f.matched() == 1 ? "" : "s"));
            spans.addAll(f.hits());
        }
        SearchResponse asSpans = new SearchResponse(spans, Math.min(spans.size(), response.totalAboveThreshold()),
                false, response.legsRun(), response.reranked(), response.timings());
        SearchAnswer chunks = SearchAnswer.of(query, spans.size(), asSpans, status, requested, freshness);
        Map<String, Object> structured = new LinkedHashMap<>(chunks.structured());
        structured.put("files", FileResults.files(files));
        return CallToolResult.builder().addTextContent(text + "\nBest spans of these files:\n" + chunks.text())
                .structuredContent(structured).isError(false).build();
    }
}
