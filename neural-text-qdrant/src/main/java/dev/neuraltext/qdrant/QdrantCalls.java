package dev.neuraltext.qdrant;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.RetriableNeuralTextException;
import io.grpc.Status;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for the client's futures and maps gRPC failures onto neural-text's exceptions. Stateless. */
final class QdrantCalls {

    /** Status codes after which repeating the same call may succeed. */
    static final Set<Status.Code> RETRIABLE = EnumSet.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED,
            Status.Code.RESOURCE_EXHAUSTED, Status.Code.ABORTED);

    private QdrantCalls() {
    }

    /**
     * The future's value. A failed call becomes a {@link RetriableNeuralTextException} for {@link #RETRIABLE} codes and
     * a {@link NonRetriableNeuralTextException} otherwise, both naming the operation and the collection and carrying
     * the gRPC failure as cause; an interrupt cancels the call, restores the flag and is reported non-retriable.
     */
    static <T> T await(Future<T> future, String operation, String collection) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new NonRetriableNeuralTextException(
                    "interrupted while waiting for Qdrant " + operation + " on collection '" + collection + "'", e);
        } catch (ExecutionException e) {
            throw failure(e.getCause() == null ? e : e.getCause(), operation, collection);
        } catch (CancellationException e) {
            throw new NonRetriableNeuralTextException(
                    "Qdrant " + operation + " on collection '" + collection + "' was cancelled", e);
        }
    }

    /** The exception for a failed call. */
    static NeuralTextException failure(Throwable cause, String operation, String collection) {
        return failure(cause, operation, collection, 1);
    }

    /**
     * The exception for a call that failed {@code attempts} times, the last time with {@code cause}. A NOT_FOUND says
     * what usually causes it: the collection was deleted, or the server restarted without persistence.
     */
    static NeuralTextException failure(Throwable cause, String operation, String collection, int attempts) {
        Status status = Status.fromThrowable(cause);
        String message = "Qdrant " + operation + " on collection '" + collection + "' failed"
                + (attempts > 1 ? " after " + attempts + " attempts" : "") + ": " + status.getCode()
                + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")")
                + (status.getCode() == Status.Code.NOT_FOUND ? "; if the collection is gone (deleted, or the server"
                        + " restarted without persistence), build the store again to re-create it and index again"
                        : "");
        return RETRIABLE.contains(status.getCode())
                ? new RetriableNeuralTextException(message, cause)
                : new NonRetriableNeuralTextException(message, cause);
    }

    /** The gRPC status code of a failure raised by {@link #await}, or null. */
    static Status.Code code(Throwable failure) {
        Throwable cause = failure.getCause();
        return cause == null ? null : Status.fromThrowable(cause).getCode();
    }
}
