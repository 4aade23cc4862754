package dev.neuraltext.ingest;

import dev.neuraltext.internal.Checks;
import java.util.Objects;

/**
 * A file or directory {@link DirectoryIngestor} did not index, and why.
 *
 * @param path   path relative to the root, forward slashes; directories end with {@code /}
 * @param reason why
 * @param detail more detail (e.g. the matching pattern or the link target), may be ""
 */
public record SkippedFile(String path, SkipReason reason, String detail) {
    public SkippedFile {
        Checks.notBlank(path, "path");
        Objects.requireNonNull(reason, "reason");
        Checks.notNull(detail, "detail");
    }
}
