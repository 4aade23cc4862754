package dev.neuraltext.qdrant;

import io.qdrant.client.QdrantClient;
import io.qdrant.client.grpc.PointsGrpc;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One collection on one client, with the per-call deadline: what every collaborator of {@link QdrantCaseStore} talks
 * to. Thread-safe (the gRPC client is).
 */
record QdrantTarget(QdrantClient client, String collection, Duration timeout) {

    /** Waits for {@code future}, turning a failure into a {@link dev.neuraltext.NeuralTextException} naming the call. */
    <T> T await(Future<T> future, String operation) {
        return QdrantCalls.await(future, operation, collection);
    }

    /** The raw points stub with this target's deadline, for calls the high-level client lacks. */
    PointsGrpc.PointsFutureStub points() {
        return client.grpcClient().points().withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
