package dev.neuraltext.qdrant;

import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.store.IndexedCase;
import io.qdrant.client.grpc.Common.PointId;
import io.qdrant.client.grpc.Points.CountPoints;
import io.qdrant.client.grpc.Points.DeletePoints;
import io.qdrant.client.grpc.Points.PointStruct;
import io.qdrant.client.grpc.Points.PointsIdsList;
import io.qdrant.client.grpc.Points.PointsSelector;
import io.qdrant.client.grpc.Points.UpsertPoints;
import io.qdrant.client.grpc.Points;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/** The writes of {@link QdrantCaseStore}: upserts in batches, deletes, and counts. Thread-safe. */
final class QdrantWriter {

    private final QdrantTarget target;
    private final QdrantVectors vectors;
    private final int batchSize;

    QdrantWriter(QdrantTarget target, QdrantVectors vectors, int batchSize) {
        this.target = target;
        this.vectors = vectors;
        this.batchSize = batchSize;
    }

    void upsert(List<IndexedCase> cases) {
        Objects.requireNonNull(cases, "cases");
        List<PointStruct> points = new ArrayList<>(cases.size());
        for (IndexedCase c : cases) {
            Objects.requireNonNull(c, "cases element");
            points.add(point(c)); // validates every case before anything is written
        }
        int batches = (points.size() + batchSize - 1) / batchSize;
        for (int i = 0; i < batches; i++) {
            List<PointStruct> batch = points.subList(i * batchSize, Math.min(points.size(), (i + 1) * batchSize));
            UpsertPoints request = UpsertPoints.newBuilder()
                    .setCollectionName(target.collection())
                    .setWait(true)
                    .addAllPoints(batch)
                    .build();
            target.await(target.client().upsertAsync(request, target.timeout()),
                    "upsert (batch " + (i + 1) + " of " + batches + ", " + batch.size() + " points; safe to repeat)");
        }
    }

    PointStruct point(IndexedCase c) {
        return PointStruct.newBuilder()
                .setId(PointId.newBuilder().setUuid(QdrantCaseStore.pointId(c.chunk().id()).toString()))
                .putAllPayload(PayloadCodec.encode(c.chunk()))
                .setVectors(Points.Vectors.newBuilder()
                        .setVectors(Points.NamedVectors.newBuilder().putAllVectors(vectors.document(c))))
                .build();
    }

    void delete(Collection<String> ids) {
        Objects.requireNonNull(ids, "ids");
        if (ids.isEmpty()) {
            return;
        }
        PointsIdsList.Builder list = PointsIdsList.newBuilder();
        for (String id : new LinkedHashSet<>(ids)) {
            list.addIds(PointId.newBuilder().setUuid(QdrantCaseStore.pointId(id).toString()));
        }
        DeletePoints request = DeletePoints.newBuilder()
                .setCollectionName(target.collection())
                .setWait(true)
                .setPoints(PointsSelector.newBuilder().setPoints(list))
                .build();
        target.await(target.client().deleteAsync(request, target.timeout()), "delete by id (" + ids.size() + " ids)");
    }

    void deleteWhere(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        DeletePoints request = DeletePoints.newBuilder()
                .setCollectionName(target.collection())
                .setWait(true)
                .setPoints(PointsSelector.newBuilder().setFilter(QdrantFilterConverter.toFilter(filter)))
                .build();
        target.await(target.client().deleteAsync(request, target.timeout()), "delete by filter");
    }

    long count(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        CountPoints request = CountPoints.newBuilder()
                .setCollectionName(target.collection())
                .setFilter(QdrantFilterConverter.toFilter(filter))
                .setExact(true)
                .build();
        return target.await(target.points().count(request), "count").getResult().getCount();
    }
}
