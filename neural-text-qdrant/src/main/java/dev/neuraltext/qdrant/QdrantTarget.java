package dev.neuraltext.qdrant;

import io.qdrant.client.QdrantClient;
import io.qdrant.client.grpc.PointsGrpc;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One collection on one client, with the per-call deadline and the retry policy of repeatable calls: what every
 * collaborator of {@link QdrantCaseStore} talks to. Thread-safe (the gRPC client is).
 */
record QdrantTarget(QdrantClient client, String collection, Duration timeout, QdrantRetry retry) {

    /** Waits for {@code future}, turning a failure into a {@link dev.neuraltext.NeuralTextException} naming the call. */
    <T> T await(Future<T> future, String operation) {
        return QdrantCalls.await(future, operation, collection);
    }

    /**
     * Sends the call {@code send} starts, and again with backoff while it fails with a retriable status: only for calls
     * that are safe to repeat (see {@link QdrantRetry}).
     */
    <T> T repeatable(Supplier<? extends Future<T>> send, String operation) {
        return retry.call(send, operation, collection);
    }

    /** The raw points stub with this target's deadline, for calls the high-level client lacks. */
    PointsGrpc.PointsFutureStub points() {
        return client.grpcClient().points().withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
