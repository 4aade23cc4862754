package dev.neuraltext.chunk;

import java.util.List;

/**
 * Splits one extracted document into chunks to index. Implementations are stateless and safe for concurrent use.
 */
@FunctionalInterface
public interface Chunker {

    /**
     * Splits {@code document} into chunks. Chunk ids must be stable across runs for unchanged content (derived from
     * the source and the symbol or section, not from line numbers), so that re-indexing replaces rather than duplicates.
     */
    List<ChunkInput> chunk(ExtractionResult document);
}
