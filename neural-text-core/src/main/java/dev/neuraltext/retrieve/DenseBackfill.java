package dev.neuraltext.retrieve;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.store.DenseCoverage;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexedCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Embeds the chunks of an {@link InMemoryCaseStore} that lack a dense vector (indexed by a run without the model),
 * in batches, and calls a checkpoint (typically: save the store) every so many chunks, so that a crash or a stop
 * loses at most one checkpoint's work. Runs beside searches and updates: a chunk replaced while its batch was being
 * embedded keeps the new content and is embedded by a later round ({@link InMemoryCaseStore#attachDense}).
 *
 * <p>Defaults: batches of {@value #DEFAULT_BATCH_SIZE} chunks, a checkpoint every {@value #DEFAULT_CHECKPOINT_EVERY}
 * embedded chunks and after the last batch, no progress listener, no stop condition. A run stops early, after a
 * checkpoint, when its thread is interrupted (the interrupt flag stays set) or its stop condition holds (checked
 * before each batch: a way to stop it without interrupting a checkpoint's file writes).
 *
 * <p>Immutable; run one at a time per store. The listeners are called on the running thread.
 */
public final class DenseBackfill {

    /** Default chunks per embedding batch. */
    public static final int DEFAULT_BATCH_SIZE = 32;
    /** Default number of embedded chunks between checkpoints. */
    public static final int DEFAULT_CHECKPOINT_EVERY = 512;

    private final InMemoryCaseStore store;
    private final Embedder embedder;
    private final int batchSize;
    private final int checkpointEvery;
    private final Runnable checkpoint;
    private final Consumer<DenseCoverage> progress;
    private final BooleanSupplier stop;
    private final DenseText denseText;

    private DenseBackfill(Builder b) {
        this.store = b.store;
        this.embedder = b.embedder;
        this.batchSize = b.batchSize;
        this.checkpointEvery = b.checkpointEvery;
        this.checkpoint = b.checkpoint;
        this.progress = b.progress;
        this.stop = b.stop;
        this.denseText = b.denseText;
    }

    /** A builder embedding with {@code embedder} into {@code store}. */
    public static Builder builder(InMemoryCaseStore store, Embedder embedder) {
        return new Builder(store, embedder);
    }

    /**
     * What a run did.
     *
     * @param embedded    chunks that got a dense vector
     * @param checkpoints checkpoints called
     * @param coverage    the store's coverage at the end
     * @param interrupted whether the run stopped early: its thread was interrupted or its stop condition held
     */
    public record Result(int embedded, int checkpoints, DenseCoverage coverage, boolean interrupted) {
        public Result {
            Objects.requireNonNull(coverage, "coverage");
        }
    }

    /**
     * Embeds every chunk lacking a dense vector.
     *
     * @throws NeuralTextException if the embedder fails (batches already attached stay; the checkpoint is not
     *                             called for the failed run)
     */
    public Result run() {
        int embedded = 0;
        int sinceCheckpoint = 0;
        int checkpoints = 0;
        boolean interrupted = false;
        while (true) {
            if (Thread.currentThread().isInterrupted() || stop.getAsBoolean()) {
                interrupted = true;
                break;
            }
            List<ChunkInput> batch = store.chunksLackingDense(batchSize);
            if (batch.isEmpty()) {
                break;
            }
            List<String> texts = new ArrayList<>(batch.size());
            batch.forEach(c -> texts.add(denseText.apply(c)));
            List<float[]> vectors = embed(texts, batch);
            List<IndexedCase> cases = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                cases.add(new IndexedCase(batch.get(i), vectors.get(i), null));
            }
            int attached = store.attachDense(cases);
            if (attached == 0) {
                break; // every chunk of the batch was replaced meanwhile: the next run picks up their new content
            }
            embedded += attached;
            sinceCheckpoint += attached;
            if (progress != null) {
                progress.accept(store.denseCoverage());
            }
            if (sinceCheckpoint >= checkpointEvery) {
                checkpoint.run();
                checkpoints++;
                sinceCheckpoint = 0;
            }
        }
        if (sinceCheckpoint > 0) {
            checkpoint.run();
            checkpoints++;
        }
        return new Result(embedded, checkpoints, store.denseCoverage(), interrupted);
    }

    private List<float[]> embed(List<String> texts, List<ChunkInput> batch) {
        String what = "embedding a batch of " + batch.size() + " chunks lacking dense vectors, starting at '"
                + batch.get(0).id() + "', with '" + embedder.modelId() + "'";
        List<float[]> vectors;
        try {
            vectors = embedder.embed(texts, TextRole.DOCUMENT);
        } catch (NeuralTextException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new NonRetriableNeuralTextException(what + " failed: " + e, e);
        }
        if (vectors == null || vectors.size() != batch.size()) {
            throw new NonRetriableNeuralTextException(what + " returned " + (vectors == null ? "null"
                    : vectors.size() + " vectors") + " for " + batch.size() + " texts", null);
        }
        for (int i = 0; i < vectors.size(); i++) {
            float[] v = vectors.get(i);
            if (v == null || v.length != embedder.dimension()) {
                throw new NonRetriableNeuralTextException("embedder '" + embedder.modelId() + "' declares dimension "
                        + embedder.dimension() + " but returned " + (v == null ? "null" : "a vector of length "
                        + v.length) + " for chunk '" + batch.get(i).id() + "'", null);
            }
        }
        return vectors;
    }

    /** Builder of {@link DenseBackfill}; not thread-safe. */
    public static final class Builder {
        private final InMemoryCaseStore store;
        private final Embedder embedder;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private int checkpointEvery = DEFAULT_CHECKPOINT_EVERY;
        private Runnable checkpoint = () -> { };
        private Consumer<DenseCoverage> progress;
        private BooleanSupplier stop = () -> false;
        private DenseText denseText = DenseText.defaults();

        private Builder(InMemoryCaseStore store, Embedder embedder) {
            this.store = Checks.notNull(store, "store");
            this.embedder = Checks.notNull(embedder, "embedder");
        }

        /** Chunks per embedding batch, {@code >= 1}; default {@value #DEFAULT_BATCH_SIZE}. */
        public Builder batchSize(int size) {
            this.batchSize = Checks.positive(size, "batchSize");
            return this;
        }

        /**
         * Called every {@code every} embedded chunks ({@code >= 1}, default {@value #DEFAULT_CHECKPOINT_EVERY}) and
         * after the last batch when anything was embedded since the previous call. Default: nothing.
         */
        public Builder checkpoint(int every, Runnable action) {
            this.checkpointEvery = Checks.positive(every, "checkpoint every");
            this.checkpoint = Checks.notNull(action, "checkpoint");
            return this;
        }

        /** Called with the store's coverage after each batch. Default: none. */
        public Builder progress(Consumer<DenseCoverage> listener) {
            this.progress = listener;
            return this;
        }

        /** Stops the run before the next batch once {@code condition} holds. Default: never. */
        public Builder stopWhen(BooleanSupplier condition) {
            this.stop = Checks.notNull(condition, "condition");
            return this;
        }

        /**
         * What is embedded for a chunk: the variant the index's other dense vectors were embedded with, as
         * {@link HybridCaseRetriever#denseText()} says. Default {@link DenseText#defaults()}.
         */
        public Builder denseText(DenseText text) {
            this.denseText = Checks.notNull(text, "denseText");
            return this;
        }

        /** The backfill. */
        public DenseBackfill build() {
            return new DenseBackfill(this);
        }
    }
}
