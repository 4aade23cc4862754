package dev.neuraltext.ingest;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import java.util.HashMap;
import java.util.Map;

/**
 * Hands out chunk ids unique within one document: the first use of a base id keeps it, later uses get {@code ~2},
 * {@code ~3}, ... in document order, so ids stay stable across runs as long as the colliding symbols keep their order.
 * Not thread-safe: one instance per document.
 */
final class ChunkIds {

    private final Map<String, Integer> seen = new HashMap<>();

    String unique(String base) {
        int n = seen.merge(base, 1, Integer::sum);
        if (n == 1) {
            return base;
        }
        String candidate = base + "~" + n;
        while (seen.containsKey(candidate)) {
            n++;
            candidate = base + "~" + n;
        }
        seen.put(candidate, 1);
        return candidate;
    }

    /** The path a document's chunk ids start with: the {@code path} metadata, else the source. */
    static String documentKey(ExtractionResult document) {
        return document.metadata().getOrDefault(ChunkMetadata.PATH, document.source());
    }
}
