package dev.neuraltext.qdrant;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import io.grpc.Status;
import io.qdrant.client.grpc.Collections;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Points.FieldType;
import io.qdrant.client.grpc.Points;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collection lifecycle of {@link QdrantCaseStore}: checks the server version, creates a missing collection with
 * its payload indexes, verifies an existing one and, only when allowed, drops and re-creates an incompatible one.
 */
final class QdrantCollectionSetup {

    /** What {@link QdrantCaseStore.Builder} configures about the collection itself. */
    record Settings(int denseDimension, int shards, int replicationFactor, int writeConsistencyFactor,
            List<String> indexedFields, boolean createIfMissing, boolean recreateIncompatible,
            boolean serverSideWeightedRrf, boolean checkServerVersion) {
        Settings {
            indexedFields = List.copyOf(indexedFields);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(QdrantCaseStore.class);
    private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\.(\\d+))?.*");

    private final QdrantTarget target;
    private final Settings settings;

    QdrantCollectionSetup(QdrantTarget target, Settings settings) {
        this.target = target;
        this.settings = settings;
    }

    /** Makes sure the collection exists with the store's layout; see {@link QdrantCaseStore.Builder#build()}. */
    void ensureCollection() {
        if (settings.checkServerVersion()) {
            checkServerVersion();
        }
        String collection = target.collection();
        boolean exists = target.repeatable(() -> target.client().collectionExistsAsync(collection, target.timeout()),
                "collection_exists");
        if (!exists) {
            if (!settings.createIfMissing()) {
                throw new NonRetriableNeuralTextException("Qdrant collection '" + collection
                        + "' does not exist and createIfMissing is false", null);
            }
            if (create()) {
                createPayloadIndexes(Set.of());
                return;
            }
            // Someone else created it meanwhile: verify it like any existing collection.
        }
        CollectionInfo info = target.repeatable(() -> target.client().getCollectionInfoAsync(collection,
                target.timeout()), "get collection info");
        List<String> diffs = QdrantSchema.differences(info, settings.denseDimension());
        if (!diffs.isEmpty()) {
            if (!settings.recreateIncompatible()) {
                throw new NonRetriableNeuralTextException("Qdrant collection '" + collection
                        + "' is incompatible with this store: " + String.join("; ", diffs)
                        + ". Use another collection name, fix it, or set recreateIncompatibleCollection(true) to drop"
                        + " and re-create it (deletes its points)", null);
            }
            LOG.warn("dropping incompatible Qdrant collection '{}' ({}) as recreateIncompatibleCollection is set",
                    collection, String.join("; ", diffs));
            target.repeatable(() -> target.client().deleteCollectionAsync(collection, target.timeout()),
                    "delete incompatible collection");
            create();
            createPayloadIndexes(Set.of());
            return;
        }
        createPayloadIndexes(info.getPayloadSchemaMap().keySet());
        if (QdrantCompletion.state(info) == null && info.getPointsCount() == 0) {
            // an empty collection from an older version or another tool: nothing in it can be half written
            QdrantCompletion.mark(target, QdrantCompletion.COMPLETE, "an empty collection without a marker");
        }
    }

    /**
     * Fails unless the server is recent enough for what this store sends: RRF with {@code k} needs 1.16 (an older
     * server would silently drop the field and fuse with k = 2), server-side weights 1.17, {@code qdrant/bm25} 1.15.3.
     * A version string that does not parse is accepted with a warning.
     */
    private void checkServerVersion() {
        String version = target.repeatable(() -> target.client().healthCheckAsync(target.timeout()), "health_check")
                .getVersion();
        int[] v = parseVersion(version);
        if (v == null) {
            LOG.warn("cannot parse Qdrant server version '{}'; assuming it supports RRF with k", version);
            return;
        }
        boolean weighted = settings.serverSideWeightedRrf();
        int[] needed = weighted ? new int[] {1, 17, 0} : new int[] {1, 16, 0};
        if (compare(v, needed) < 0) {
            throw new NonRetriableNeuralTextException("Qdrant server " + version + " is too old for collection '"
                    + target.collection() + "': need " + needed[0] + "." + needed[1] + "." + needed[2]
                    + " or later (RRF with an explicit k" + (weighted ? " and per-prefetch weights" : "") + ")", null);
        }
    }

    /** {@code major, minor, patch} of a version string such as {@code v1.17.1} or {@code 1.16}; null if unparsable. */
    static int[] parseVersion(String version) {
        Matcher m = VERSION.matcher(version == null ? "" : version.trim());
        if (!m.matches()) {
            return null;
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            m.group(3) == null ? 0 : Integer.parseInt(m.group(3))};
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < 3; i++) {
            if (a[i] != b[i]) {
                return Integer.compare(a[i], b[i]);
            }
        }
        return 0;
    }

    /** Creates the collection; false when it already existed (created concurrently). */
    private boolean create() {
        try {
            Collections.CreateCollection request = QdrantSchema.create(target.collection(),
                    settings.denseDimension(), settings.shards(), settings.replicationFactor(),
                    settings.writeConsistencyFactor());
            target.repeatable(() -> target.client().createCollectionAsync(request, target.timeout()),
                    "create collection");
            return true;
        } catch (NeuralTextException e) {
            // Qdrant answers ALREADY_EXISTS (older servers: INVALID_ARGUMENT "... already exists!")
            Status.Code code = QdrantCalls.code(e);
            if (code == Status.Code.ALREADY_EXISTS || code == Status.Code.INVALID_ARGUMENT
                    && String.valueOf(e.getMessage()).contains("already exists")) {
                return false;
            }
            throw e;
        }
    }

    private void createPayloadIndexes(Set<String> existing) {
        for (String field : settings.indexedFields()) {
            if (existing.contains(field)) {
                continue;
            }
            Points.CreateFieldIndexCollection request = Points.CreateFieldIndexCollection.newBuilder()
                    .setCollectionName(target.collection())
                    .setWait(true)
                    .setFieldName(field)
                    .setFieldType(FieldType.FieldTypeKeyword)
                    .build();
            target.repeatable(() -> target.client().createPayloadIndexAsync(request, target.timeout()),
                    "create keyword payload index on '" + field + "'");
        }
    }
}
