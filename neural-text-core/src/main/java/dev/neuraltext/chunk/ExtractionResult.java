package dev.neuraltext.chunk;

import dev.neuraltext.internal.Checks;
import java.util.List;
import java.util.Map;

/**
 * The text and metadata extracted from one source document (a file, a page), before chunking.
 *
 * @param source       where the text came from, e.g. a path relative to the indexed root
 * @param text         the full text
 * @param metadata     single-valued metadata, e.g. {@code path}, {@code language}, front-matter scalars
 * @param listMetadata multi-valued metadata, e.g. front-matter {@code tags}
 */
public record ExtractionResult(
        String source, String text, Map<String, String> metadata, Map<String, List<String>> listMetadata) {

    public ExtractionResult {
        Checks.notBlank(source, "source");
        Checks.notNull(text, "text");
        metadata = Checks.stringMap(metadata, "metadata");
        listMetadata = Checks.listMap(listMetadata, "listMetadata");
    }

    /** A document with no metadata. */
    public static ExtractionResult of(String source, String text) {
        return new ExtractionResult(source, text, Map.of(), Map.of());
    }
}
