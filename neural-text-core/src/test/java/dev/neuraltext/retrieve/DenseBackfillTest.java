package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.store.DenseCoverage;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexedCase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DenseBackfillTest {

    @TempDir
    Path tmp;

    private static List<ChunkInput> chunks(String prefix, int n) {
        List<ChunkInput> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(ChunkInput.of(prefix + i, prefix + " text number " + i));
        }
        return out;
    }

    @Test
    void theBackfillEmbedsTheSameDenseTextVariantAsTheRetriever() {
        HybridCaseRetrieverTest.TableEmbedder embedder = new HybridCaseRetrieverTest.TableEmbedder(3);
        ChunkInput chunk = ChunkInput.of("a", "long backoffDelay(int attempt) { return base << attempt; }",
                java.util.Map.of("path", "src/RetryPolicy.java", "symbol", "RetryPolicy.backoffDelay"));
        try (InMemoryCaseStore store = InMemoryCaseStore.create()) {
            HybridCaseRetriever.builder(store).build().index(List.of(chunk)); // a run without the model
            DenseBackfill.builder(store, embedder).denseText(DenseText.HEADER).build().run();
            assertThat(embedder.calls).containsExactly(List.of(DenseText.HEADER.apply(chunk)));
            assertThat(DenseText.HEADER.apply(chunk)).isNotEqualTo(chunk.text());
        }
    }

    @Test
    void chunksIndexedWithoutTheModelAreLackingAndTheBackfillEmbedsThemInCheckpointedBatches() {
        HybridCaseRetrieverTest.TableEmbedder embedder = new HybridCaseRetrieverTest.TableEmbedder(3);
        try (InMemoryCaseStore store = InMemoryCaseStore.create()) {
            HybridCaseRetriever.builder(store).embedder(embedder).build().index(chunks("dense", 4));
            HybridCaseRetriever.builder(store).build().index(chunks("plain", 10)); // a run without the model
            assertThat(store.denseCoverage()).isEqualTo(new DenseCoverage(14, 4));
            assertThat(store.denseCoverage().partial()).isTrue();
            assertThat(store.chunksLackingDense(100)).extracting(ChunkInput::id).hasSize(10).allMatch(
                    id -> id.startsWith("plain"));

            AtomicInteger checkpoints = new AtomicInteger();
            List<Long> seen = new ArrayList<>();
            DenseBackfill.Result r = DenseBackfill.builder(store, embedder).batchSize(3)
                    .checkpoint(6, checkpoints::incrementAndGet).progress(c -> seen.add(c.withDense())).build().run();

            assertThat(r.embedded()).isEqualTo(10);
            assertThat(r.coverage()).isEqualTo(new DenseCoverage(14, 14));
            assertThat(seen).containsExactly(7L, 10L, 13L, 14L);
            assertThat(checkpoints.get()).isEqualTo(2).isEqualTo(r.checkpoints()); // after 6 embedded (at 10) and at the end
            assertThat(store.chunksLackingDense(100)).isEmpty();
            // the backfilled chunks are found by the dense leg now
            assertThat(HybridCaseRetriever.builder(store).embedder(embedder).build()
                    .search(SearchRequest.builder("plain text number 3").legs(java.util.Set.of(Leg.DENSE)).build())
                    .hits()).isNotEmpty();
        }
    }

    @Test
    void aChunkReplacedWhileItsBatchWasEmbeddedKeepsItsNewContentAndGetsNoStaleVector() {
        try (InMemoryCaseStore store = InMemoryCaseStore.create()) {
            store.upsert(List.of(IndexedCase.of(ChunkInput.of("a", "old text"))));
            ChunkInput seen = store.chunksLackingDense(1).get(0);
            store.upsert(List.of(IndexedCase.of(ChunkInput.of("a", "new text")))); // a concurrent update
            assertThat(store.attachDense(List.of(new IndexedCase(seen, new float[] {1, 0}, null)))).isZero();
            assertThat(store.denseCoverage().withDense()).isZero();
            assertThat(store.chunk("a")).get().extracting(ChunkInput::text).isEqualTo("new text");
            ChunkInput current = store.chunksLackingDense(1).get(0);
            assertThat(store.attachDense(List.of(new IndexedCase(current, new float[] {1, 0}, null)))).isOne();
            assertThat(store.attachDense(List.of(new IndexedCase(current, new float[] {0, 1}, null))))
                    .as("a chunk that has a vector keeps it").isZero();
            assertThatThrownBy(() -> store.attachDense(List.of(new IndexedCase(current, new float[] {1, 0, 0}, null))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension 3")
                    .hasMessageContaining("dense dimension is 2");
        }
    }

    @Test
    void aPartlyEmbeddedIndexSavesAndLoadsWithTheModelItWasSavedWithAndKeepsItsCoverage() {
        HybridCaseRetrieverTest.TableEmbedder embedder = new HybridCaseRetrieverTest.TableEmbedder(3);
        InMemoryCaseStore.Builder config = InMemoryCaseStore.builder();
        try (InMemoryCaseStore store = config.build()) {
            HybridCaseRetriever.builder(store).embedder(embedder).build().index(chunks("dense", 2));
            HybridCaseRetriever.builder(store).build().index(chunks("plain", 3));
            store.save(tmp, config.fingerprint().withDense(embedder));
        }
        IndexFingerprint asSaved = config.fingerprintAsSaved(tmp);
        assertThat(asSaved.denseModel()).isEqualTo("table-embedder");
        try (InMemoryCaseStore loaded = config.load(tmp, asSaved)) {
            assertThat(loaded.denseCoverage()).isEqualTo(new DenseCoverage(5, 2));
        }
    }

    @Test
    void anEmbedderFailureStopsTheRunWithoutACheckpointAndNamesTheBatch() {
        HybridCaseRetrieverTest.TableEmbedder embedder = new HybridCaseRetrieverTest.TableEmbedder(3);
        embedder.failure = new IllegalStateException("model crashed");
        try (InMemoryCaseStore store = InMemoryCaseStore.create()) {
            HybridCaseRetriever.builder(store).build().index(chunks("plain", 2));
            AtomicInteger checkpoints = new AtomicInteger();
            assertThatThrownBy(() -> DenseBackfill.builder(store, embedder)
                    .checkpoint(1, checkpoints::incrementAndGet).build().run())
                    .isInstanceOf(NeuralTextException.class).hasMessageContaining("lacking dense vectors")
                    .hasMessageContaining("model crashed");
            assertThat(checkpoints.get()).isZero();
        }
    }

    @Test
    void anInterruptedRunStopsBeforeTheNextBatchAndKeepsTheFlag() {
        HybridCaseRetrieverTest.TableEmbedder embedder = new HybridCaseRetrieverTest.TableEmbedder(3);
        try (InMemoryCaseStore store = InMemoryCaseStore.create()) {
            HybridCaseRetriever.builder(store).build().index(chunks("plain", 5));
            Thread.currentThread().interrupt();
            try {
                DenseBackfill.Result r = DenseBackfill.builder(store, embedder).batchSize(2).build().run();
                assertThat(r.interrupted()).isTrue();
                assertThat(r.embedded()).isZero();
                assertThat(Thread.currentThread().isInterrupted()).isTrue();
            } finally {
                Thread.interrupted();
            }
        }
    }
}
