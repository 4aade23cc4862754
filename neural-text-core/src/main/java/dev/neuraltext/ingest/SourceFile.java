package dev.neuraltext.ingest;

import dev.neuraltext.internal.Checks;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A file {@link DirectoryIngestor} will index.
 *
 * @param path        path relative to the root, forward slashes
 * @param file        the file on disk
 * @param language    {@code java}, {@code markdown}, {@code text}, or a file-type name such as {@code xml}
 * @param size        size in bytes when scanned
 * @param contentHash SHA-256 of the content when scanned, lower-case hex
 */
public record SourceFile(String path, Path file, String language, long size, String contentHash) {
    public SourceFile {
        Checks.notBlank(path, "path");
        Objects.requireNonNull(file, "file");
        Checks.notBlank(language, "language");
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0, got " + size);
        }
        Checks.notBlank(contentHash, "contentHash");
    }
}
