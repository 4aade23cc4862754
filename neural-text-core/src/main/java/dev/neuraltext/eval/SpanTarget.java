package dev.neuraltext.eval;

import java.util.Objects;

/**
 * A place that answers a whole-repository question: a file, optionally narrowed to a line span. Paths use forward
 * slashes; lines are 1-based and inclusive.
 *
 * @param path      the file's path (relative, forward slashes)
 * @param startLine the first line of the span, or 0 when the target is the whole file
 * @param endLine   the last line of the span, or 0 when the target is the whole file
 */
public record SpanTarget(String path, int startLine, int endLine) {

    public SpanTarget {
        Objects.requireNonNull(path, "path");
        if (path.isBlank()) {
            throw new IllegalArgumentException("path must not be blank");
        }
        if (startLine < 0 || endLine < 0 || (startLine == 0) != (endLine == 0) || endLine < startLine) {
            throw new IllegalArgumentException("span of '" + path + "' must be 0-0 (whole file) or 1 <= start <= end, got "
                    + startLine + "-" + endLine);
        }
    }

    /** A whole-file target. */
    public static SpanTarget file(String path) {
        return new SpanTarget(path, 0, 0);
    }

    /** Whether this target names lines (otherwise any part of the file matches). */
    public boolean hasSpan() {
        return startLine > 0;
    }
}
