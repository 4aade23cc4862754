package dev.neuraltext.qdrant;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Bounded exponential backoff for the calls that may be repeated safely: writes (deterministic point ids make an upsert
 * idempotent) and the collection setup. A call that fails with one of {@link QdrantCalls#RETRIABLE} is sent again
 * after {@code initialDelay}, then after twice as long each time up to {@code maxDelay}, until it succeeds or
 * {@code maxAttempts} calls failed; any other status ends the call at once. No jitter: one writer at a time is the
 * store's contract, so there is no herd to spread. Immutable and thread-safe when the sleeper is.
 */
final class QdrantRetry {

    private final int maxAttempts;
    private final Duration initialDelay;
    private final Duration maxDelay;
    private final QdrantCaseStore.Sleeper sleeper;

    QdrantRetry(int maxAttempts, Duration initialDelay, Duration maxDelay, QdrantCaseStore.Sleeper sleeper) {
        this.maxAttempts = maxAttempts;
        this.initialDelay = initialDelay;
        this.maxDelay = maxDelay;
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** The wait after the {@code failures}-th failed attempt: {@code initialDelay * 2^(failures - 1)}, at most max. */
    Duration delay(int failures) {
        Duration d = initialDelay;
        for (int i = 1; i < failures && d.compareTo(maxDelay) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxDelay) > 0 ? maxDelay : d;
    }

    /**
     * The value of the call that {@code send} starts, sent again while it fails with a retriable status. The last
     * failure is thrown, saying how many attempts were made, with the gRPC failure as cause.
     */
    <T> T call(Supplier<? extends Future<T>> send, String operation, String collection) {
        for (int attempt = 1; ; attempt++) {
            try {
                return QdrantCalls.await(send.get(), operation, collection);
            } catch (NeuralTextException e) {
                if (!e.isRetriable() || attempt >= maxAttempts) {
                    boolean grpc = e.getCause() instanceof StatusRuntimeException
                            || e.getCause() instanceof StatusException;
                    throw attempt == 1 || !grpc ? e : QdrantCalls.failure(e.getCause(), operation, collection, attempt);
                }
                Duration wait = delay(attempt);
                try {
                    sleeper.sleep(wait);
                } catch (InterruptedException interrupt) {
                    Thread.currentThread().interrupt();
                    NonRetriableNeuralTextException stop = new NonRetriableNeuralTextException("interrupted while "
                            + "waiting " + wait.toMillis() + " ms to repeat Qdrant " + operation + " on collection '"
                            + collection + "' after " + attempt + " failed attempts", interrupt);
                    stop.addSuppressed(e);
                    throw stop;
                }
            }
        }
    }
}
