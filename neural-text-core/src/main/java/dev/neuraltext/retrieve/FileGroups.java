package dev.neuraltext.retrieve;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * File-shaped answers: ranked hits grouped by their file ({@code path} metadata; hits without one stand alone under
 * their id), each file ranked by its evidence, the sum of its hits' scores halved for each further hit (its best hit
 * counts in full, the second half, the third a quarter...), ties kept in the order of first appearance. Each file keeps
 * its best {@code spansPerFile} hits, best first. Stateless.
 */
public final class FileGroups {

    /** The spans kept per file by default. */
    public static final int DEFAULT_SPANS_PER_FILE = 3;

    /**
     * A file and its evidence.
     *
     * @param path     the file's path (a hit's id when it has no path)
     * @param evidence the file's score (see the class documentation)
     * @param hits     its best hits, best first (at most the requested number of spans)
     * @param matched  how many of the hits given were from this file
     */
    public record FileHit(String path, double evidence, List<SearchHit> hits, int matched) {
        public FileHit {
            Checks.notBlank(path, "path");
            hits = List.copyOf(hits);
        }
    }

    private FileGroups() {
    }

    /**
     * The first {@code limit} files of {@code hits} (best first), each with at most {@code spansPerFile} hits.
     *
     * @throws IllegalArgumentException if {@code limit} or {@code spansPerFile} is below 1
     */
    public static List<FileHit> group(List<SearchHit> hits, int limit, int spansPerFile) {
        Checks.positive(limit, "limit");
        Checks.positive(spansPerFile, "spansPerFile");
        Map<String, List<SearchHit>> byFile = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            byFile.computeIfAbsent(h.metadata().getOrDefault(ChunkMetadata.PATH, h.id()), p -> new ArrayList<>()).add(h);
        }
        List<FileHit> files = new ArrayList<>(byFile.size());
        for (Map.Entry<String, List<SearchHit>> e : byFile.entrySet()) {
            double evidence = 0;
            double weight = 1;
            for (SearchHit h : e.getValue()) {
                evidence += weight * h.score();
                weight /= 2;
            }
            List<SearchHit> kept = e.getValue().subList(0, Math.min(spansPerFile, e.getValue().size()));
            files.add(new FileHit(e.getKey(), evidence, kept, e.getValue().size()));
        }
        // stable: equal evidence keeps the order of first appearance
        files.sort((a, b) -> Double.compare(b.evidence(), a.evidence()));
        return List.copyOf(files.subList(0, Math.min(limit, files.size())));
    }
}
