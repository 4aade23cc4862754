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
import java.util.concurrent.atomic.AtomicReference;

/**
 * The writes of {@link QdrantCaseStore}: upserts in batches, deletes, and counts. Every write request is repeated with
 * backoff while it fails retriably (safe: point ids are deterministic, deletes are idempotent), and every write belongs
 * to a run that keeps the collection's completion marker ({@link QdrantCompletion}) on {@code writing} until it
 * finished: the open {@link QdrantIndexRun}, or else a run of its own around the one call. Thread-safe; one writer at a
 * time.
 */
final class QdrantWriter {

    private final QdrantTarget target;
    private final QdrantVectors vectors;
    private final int batchSize;
    private final AtomicReference<QdrantIndexRun> openRun = new AtomicReference<>();

    QdrantWriter(QdrantTarget target, QdrantVectors vectors, int batchSize) {
        this.target = target;
        this.vectors = vectors;
        this.batchSize = batchSize;
    }

    /** Marks the collection incomplete and opens a run that the writes join until it is closed. */
    QdrantIndexRun beginRun() {
        QdrantIndexRun run = new QdrantIndexRun(target, closed -> openRun.compareAndSet(closed, null));
        if (!openRun.compareAndSet(null, run)) {
            throw new IllegalStateException("an index run is already open on Qdrant collection '" + target.collection()
                    + "'; complete or close it first");
        }
        try {
            QdrantCompletion.mark(target, QdrantCompletion.WRITING, "an index run begins");
        } catch (RuntimeException e) {
            openRun.set(null);
            throw e;
        }
        return run;
    }

    /**
     * Runs {@code write} inside the open run (a failure is remembered by it), or as a run of its own: the marker says
     * {@code writing} before the first request and {@code complete} only after the last one succeeded.
     */
    private void write(String what, Runnable write) {
        QdrantIndexRun run = openRun.get();
        if (run != null) {
            try {
                write.run();
            } catch (RuntimeException e) {
                run.failed(e);
                throw e;
            }
            return;
        }
        QdrantCompletion.mark(target, QdrantCompletion.WRITING, what + " begins");
        write.run(); // a failure leaves the marker on writing: searches refuse what may be half written
        QdrantCompletion.mark(target, QdrantCompletion.COMPLETE, what + " finished");
    }

    void upsert(List<IndexedCase> cases) {
        Objects.requireNonNull(cases, "cases");
        List<PointStruct> points = new ArrayList<>(cases.size());
        for (IndexedCase c : cases) {
            Objects.requireNonNull(c, "cases element");
            points.add(point(c)); // validates every case before anything is written
        }
        if (points.isEmpty()) {
            return;
        }
        int batches = (points.size() + batchSize - 1) / batchSize;
        write("an upsert of " + points.size() + " points", () -> {
            for (int i = 0; i < batches; i++) {
                List<PointStruct> batch = points.subList(i * batchSize, Math.min(points.size(), (i + 1) * batchSize));
                UpsertPoints request = UpsertPoints.newBuilder()
                        .setCollectionName(target.collection())
                        .setWait(true)
                        .addAllPoints(batch)
                        .build();
                target.repeatable(() -> target.client().upsertAsync(request, target.timeout()), "upsert (batch "
                        + (i + 1) + " of " + batches + ", " + batch.size() + " points; safe to repeat)");
            }
        });
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
        write("a delete of " + ids.size() + " ids", () -> target.repeatable(
                () -> target.client().deleteAsync(request, target.timeout()), "delete by id (" + ids.size() + " ids)"));
    }

    void deleteWhere(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        DeletePoints request = DeletePoints.newBuilder()
                .setCollectionName(target.collection())
                .setWait(true)
                .setPoints(PointsSelector.newBuilder().setFilter(QdrantFilterConverter.toFilter(filter)))
                .build();
        write("a delete by filter", () -> target.repeatable(
                () -> target.client().deleteAsync(request, target.timeout()), "delete by filter"));
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
