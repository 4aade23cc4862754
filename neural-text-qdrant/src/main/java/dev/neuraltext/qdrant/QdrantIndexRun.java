package dev.neuraltext.qdrant;

import java.util.function.Consumer;

/**
 * An index run on a {@link QdrantCaseStore}: the writes between {@link QdrantCaseStore#beginIndexRun()} and
 * {@link #complete()}, which the collection's completion marker covers as one. The marker says {@code writing} from
 * the start of the run, so that searches (from any process) refuse the collection while it may hold part of an index,
 * and {@code complete} only once {@link #complete()} is called after every write of the run succeeded. Use it around
 * an index of many batches:
 *
 * <pre>{@code
 * try (QdrantIndexRun run = store.beginIndexRun()) {
 *     retriever.index(chunks);   // many upsert calls
 *     run.complete();
 * }
 * }</pre>
 *
 * A run closed without {@link #complete()} (an exception, a crash, a kill) leaves the collection marked incomplete
 * until a later run completes. Not thread-safe: one writer at a time, as for the store.
 */
public final class QdrantIndexRun implements AutoCloseable {

    private final QdrantTarget target;
    private final Consumer<QdrantIndexRun> onClose;
    private volatile RuntimeException failure;
    private volatile boolean closed;

    QdrantIndexRun(QdrantTarget target, Consumer<QdrantIndexRun> onClose) {
        this.target = target;
        this.onClose = onClose;
    }

    /** Remembers that a write of this run failed, so that the run can no longer complete. */
    void failed(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
    }

    /**
     * Marks the collection complete and closes the run.
     *
     * @throws IllegalStateException if the run is closed or one of its writes failed (then the collection stays
     *                               incomplete: begin a new run and write everything again)
     * @throws dev.neuraltext.NeuralTextException if the marker cannot be written (retriable when the server is)
     */
    public void complete() {
        if (closed) {
            throw new IllegalStateException("the index run on Qdrant collection '" + target.collection()
                    + "' is closed");
        }
        RuntimeException f = failure;
        if (f != null) {
            throw new IllegalStateException("cannot mark Qdrant collection '" + target.collection() + "' complete: a"
                    + " write of this index run failed (" + f.getMessage() + "); begin a new run and write everything"
                    + " again", f);
        }
        QdrantCompletion.mark(target, QdrantCompletion.COMPLETE, "an index run finished");
        close();
    }

    /** Ends the run; without {@link #complete()} the collection stays marked incomplete. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            onClose.accept(this);
        }
    }
}
