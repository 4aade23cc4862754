package dev.neuraltext.qdrant;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.RetriableNeuralTextException;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.UpdateCollection;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.util.List;
import java.util.Map;

/**
 * The completion marker of a collection: the collection metadata key {@value #KEY} (Qdrant 1.16 or later), which says
 * whether every write sent to the collection finished. A collection the store creates is {@value #COMPLETE} (empty);
 * a write run sets {@value #WRITING} before its first request and {@value #COMPLETE} after its last one succeeded, so
 * a run that fails or dies half way leaves {@value #WRITING}, and searches refuse to answer from it. Stateless.
 */
final class QdrantCompletion {

    static final String KEY = "neural_text_state";
    static final String COMPLETE = "complete";
    static final String WRITING = "writing";

    private QdrantCompletion() {
    }

    /** The metadata of a collection in the given state. */
    static Map<String, Value> metadata(String state) {
        return Map.of(KEY, Value.newBuilder().setStringValue(state).build());
    }

    /** Sets the marker to {@code state}; repeated with backoff while the server fails retriably. */
    static void mark(QdrantTarget target, String state, String why) {
        UpdateCollection request = UpdateCollection.newBuilder()
                .setCollectionName(target.collection())
                .putAllMetadata(metadata(state))
                .build();
        target.repeatable(() -> target.client().updateCollectionAsync(request, target.timeout()),
                "update collection metadata (" + KEY + " = " + state + ", " + why + ")");
    }

    /** The marker's value in {@code info}, or null when the collection has none. */
    static String state(CollectionInfo info) {
        Value v = info.getConfig().getMetadataMap().get(KEY);
        return v == null || !v.hasStringValue() ? null : v.getStringValue();
    }

    /**
     * Fails unless a search may answer from the collection {@code info} describes: it must be laid out for this store
     * (a collection dropped and re-created by another version is refused with both values of every difference) and its
     * marker must say {@value #COMPLETE}.
     *
     * @throws NonRetriableNeuralTextException for a layout that differs or a missing marker
     * @throws RetriableNeuralTextException    while the marker says a write has not finished
     */
    static void requireSearchable(CollectionInfo info, String collection, int denseDimension) {
        List<String> diffs = QdrantSchema.differences(info, denseDimension);
        if (!diffs.isEmpty()) {
            throw new NonRetriableNeuralTextException("Qdrant collection '" + collection + "' no longer fits this"
                    + " store (re-created by another version or tool?): " + String.join("; ", diffs), null);
        }
        String state = state(info);
        if (COMPLETE.equals(state)) {
            return;
        }
        if (state == null) {
            throw new NonRetriableNeuralTextException("Qdrant collection '" + collection + "' has no completion"
                    + " marker (collection metadata '" + KEY + "'), so nothing says its " + info.getPointsCount()
                    + " points are a whole index: it was written by another tool, by an older neural-text, or on a"
                    + " server older than 1.16 (which drops collection metadata). Refusing to search it; index it again"
                    + " with this version in an index run (QdrantCaseStore.beginIndexRun), as 'neural-text index"
                    + " --qdrant' does, or delete it and index"
                    + " again", null);
        }
        throw new RetriableNeuralTextException("Qdrant collection '" + collection + "' is incomplete (" + KEY + " = "
                + state + "): a write began and has not finished, so it may hold part of an index. It is under way, or"
                + " it failed and must be repeated; refusing to search half a collection", null);
    }
}
