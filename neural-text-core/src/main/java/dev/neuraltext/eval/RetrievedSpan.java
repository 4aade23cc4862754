package dev.neuraltext.eval;

import java.util.Objects;

/**
 * One retrieved chunk as whole-repository scoring sees it: its file and the lines it covers.
 *
 * @param path      the chunk's file path (relative, forward slashes)
 * @param startLine the chunk's first line (1-based), or 0 when unknown
 * @param endLine   the chunk's last line (inclusive), or 0 when unknown
 */
public record RetrievedSpan(String path, int startLine, int endLine) {

    public RetrievedSpan {
        Objects.requireNonNull(path, "path");
    }
}
