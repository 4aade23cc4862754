package dev.neuraltext.eval;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.internal.Checks;
import java.util.Map;

/**
 * One corpus document of an evaluation dataset.
 *
 * @param id       the document id ({@code _id} in BEIR), non-blank
 * @param title    the title, empty when the dataset has none
 * @param text     the text
 * @param metadata the document's scalar metadata values as strings (nulls and nested values are left out)
 */
public record EvalDocument(String id, String title, String text, Map<String, String> metadata) {

    /** The BM25 field holding the title in {@link #toChunkInput()}. */
    public static final String NAME_FIELD = ChunkMetadata.FIELD_NAME;

    public EvalDocument {
        Checks.notBlank(id, "id");
        title = title == null ? "" : title;
        Checks.notNull(text, "text (document '" + id + "')");
        metadata = Checks.stringMap(metadata, "metadata");
    }

    /**
     * The chunk every neural-text technique indexes for this document, the same for every evaluation: id, text
     * {@code title + "\n" + text}, the metadata, and BM25 fields {@code name} = title and {@code body} = text.
     */
    public ChunkInput toChunkInput() {
        return new ChunkInput(id, title + "\n" + text, metadata, Map.of(),
                Map.of(NAME_FIELD, title, ChunkInput.DEFAULT_FIELD, text));
    }
}
