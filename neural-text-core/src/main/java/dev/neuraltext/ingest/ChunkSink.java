package dev.neuraltext.ingest;

import dev.neuraltext.chunk.ChunkInput;
import java.util.Collection;
import java.util.List;

/**
 * Where {@link IncrementalIndexer} sends its changes; typically
 * {@code ChunkSink.of(retriever::index, retriever::delete)} over a
 * {@link dev.neuraltext.retrieve.HybridCaseRetriever}. Called from one thread at a time.
 */
public interface ChunkSink {

    /** Indexes (inserts or replaces by id) these chunks. */
    void upsert(List<ChunkInput> chunks);

    /** Deletes the chunks with these ids. */
    void delete(Collection<String> ids);

    /** A sink from two method references. */
    static ChunkSink of(java.util.function.Consumer<List<ChunkInput>> upsert,
            java.util.function.Consumer<Collection<String>> delete) {
        java.util.Objects.requireNonNull(upsert, "upsert");
        java.util.Objects.requireNonNull(delete, "delete");
        return new ChunkSink() {
            @Override
            public void upsert(List<ChunkInput> chunks) {
                upsert.accept(chunks);
            }

            @Override
            public void delete(Collection<String> ids) {
                delete.accept(ids);
            }
        };
    }
}
