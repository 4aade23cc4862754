package dev.neuraltext.retrieve;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What {@link RelatedCode#find} is asked: a file, optionally narrowed to the definition at a line or to a symbol, and
 * how many hits to return.
 *
 * @param path   the file, relative to the indexed root with forward slashes, as the chunks' {@code path} metadata
 * @param line   a 1-based line of the file: the innermost chunk holding it is the target; 0 for the whole file
 * @param symbol a definition of the file by name ({@code retry}, {@code RetryPolicy.retry}); null or empty for none
 * @param limit     hits to return, at least 1
 * @param relations the relations to return (empty: every one)
 */
public record RelatedRequest(String path, int line, String symbol, int limit, Set<Relation> relations) {

    /** Default number of hits: {@value}. */
    public static final int DEFAULT_LIMIT = 8;

    /** Validates: a non-blank path, {@code line >= 0}, not both a line and a symbol, {@code limit >= 1}. */
    public RelatedRequest {
        Objects.requireNonNull(path, "path");
        if (path.isBlank()) {
            throw new IllegalArgumentException("path must not be blank");
        }
        if (line < 0) {
            throw new IllegalArgumentException("line must be >= 1 (or 0 for the whole file), got " + line);
        }
        symbol = symbol == null || symbol.isBlank() ? null : symbol.strip();
        if (line > 0 && symbol != null) {
            throw new IllegalArgumentException("give a line or a symbol, not both (line " + line + ", symbol '"
                    + symbol + "')");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        }
        Objects.requireNonNull(relations, "relations");
        relations = relations.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(relations));
    }

    /** A request for every relation. */
    public RelatedRequest(String path, int line, String symbol, int limit) {
        this(path, line, symbol, limit, Set.of());
    }

    /** Whether the request asks for hits of relation {@code r}. */
    public boolean wants(Relation r) {
        return relations.isEmpty() || relations.contains(r);
    }

    /** The whole file, {@link #DEFAULT_LIMIT} hits. */
    public static RelatedRequest file(String path) {
        return new RelatedRequest(path, 0, null, DEFAULT_LIMIT);
    }

    /** A copy returning {@code n} hits. */
    public RelatedRequest withLimit(int n) {
        return new RelatedRequest(path, line, symbol, n, relations);
    }
}
