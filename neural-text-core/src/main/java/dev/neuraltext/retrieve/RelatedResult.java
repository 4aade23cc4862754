package dev.neuraltext.retrieve;

import java.util.List;
import java.util.Objects;

/**
 * The answer of {@link RelatedCode#find}.
 *
 * @param path         the target file
 * @param targets      the target's chunks as {@code symbol} or {@code path:start-end} (the whole file: every chunk)
 * @param names        the target's definition names whose uses were looked up, most specific first
 * @param hits         the related chunks, best first, at most the request's limit, one per file before a second
 * @param totalHits    how many related chunks there are in all (more than {@code hits} when the limit cut them)
 * @param totalFiles   how many distinct files they lie in
 * @param testsIndexed whether the index holds any test source at all (an index built without tests finds none)
 */
public record RelatedResult(String path, List<String> targets, List<String> names, List<RelatedHit> hits,
        int totalHits, int totalFiles, boolean testsIndexed) {

    /** Validates and copies. */
    public RelatedResult {
        Objects.requireNonNull(path, "path");
        targets = List.copyOf(targets);
        names = List.copyOf(names);
        hits = List.copyOf(hits);
        if (totalHits < hits.size()) {
            throw new IllegalArgumentException("totalHits " + totalHits + " < hits " + hits.size());
        }
    }

    /** The distinct files of the hits, in rank order. */
    public List<String> files() {
        return hits.stream().map(RelatedHit::path).distinct().toList();
    }
}
