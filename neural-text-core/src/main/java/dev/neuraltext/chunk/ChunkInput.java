package dev.neuraltext.chunk;

import dev.neuraltext.filter.Payload;
import dev.neuraltext.internal.Checks;
import java.util.List;
import java.util.Map;

/**
 * One unit to index: a method, a type, a Markdown section, a window of plain text.
 *
 * @param id           stable identifier, unique within a store; re-indexing the same id replaces the chunk
 * @param text         the text shown to users and given to the dense and sparse encoders
 * @param metadata     single-valued metadata such as {@code path}, {@code symbolType}, {@code startLine};
 *                     filterable with {@link dev.neuraltext.filter.PayloadFilter}
 * @param listMetadata multi-valued metadata such as {@code tags}; a filter condition matches a list when any element does
 * @param fields       optional named text fields for BM25 field weighting (e.g. {@code name}, {@code signature},
 *                     {@code doc}, {@code body}); when empty, BM25 indexes {@link #text()} as the single field
 *                     {@value #DEFAULT_FIELD}
 */
public record ChunkInput(
        String id,
        String text,
        Map<String, String> metadata,
        Map<String, List<String>> listMetadata,
        Map<String, String> fields) {

    /** The BM25 field name used for {@link #text()} when a chunk has no named fields. */
    public static final String DEFAULT_FIELD = ChunkMetadata.FIELD_BODY;

    public ChunkInput {
        Checks.notBlank(id, "id");
        Checks.notNull(text, "text");
        metadata = Checks.stringMap(metadata, "metadata");
        listMetadata = Checks.listMap(listMetadata, "listMetadata");
        fields = Checks.stringMap(fields, "fields");
        for (String key : listMetadata.keySet()) {
            if (metadata.containsKey(key)) {
                throw new IllegalArgumentException(
                        "metadata and listMetadata must not share a key, got '" + key + "' in both (chunk id '" + id + "')");
            }
        }
    }

    /** A chunk with text only. */
    public static ChunkInput of(String id, String text) {
        return new ChunkInput(id, text, Map.of(), Map.of(), Map.of());
    }

    /** A chunk with text and single-valued metadata. */
    public static ChunkInput of(String id, String text, Map<String, String> metadata) {
        return new ChunkInput(id, text, metadata, Map.of(), Map.of());
    }

    /** The metadata as the filter model sees it. */
    public Payload payload() {
        return new Payload(metadata, listMetadata);
    }

    /** The named fields BM25 indexes: {@link #fields()}, or {@link #text()} under {@value #DEFAULT_FIELD}. */
    public Map<String, String> bm25Fields() {
        return fields.isEmpty() ? Map.of(DEFAULT_FIELD, text) : fields;
    }

    /** A copy with different metadata. */
    public ChunkInput withMetadata(Map<String, String> newMetadata) {
        return new ChunkInput(id, text, newMetadata, listMetadata, fields);
    }
}
