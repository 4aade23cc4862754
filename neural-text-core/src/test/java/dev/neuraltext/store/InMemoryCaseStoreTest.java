package dev.neuraltext.store;

import static dev.neuraltext.filter.PayloadFilter.all;
import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class InMemoryCaseStoreTest extends CaseStoreContract {

    @Override
    protected CaseStore createStore(int denseDimension) {
        return InMemoryCaseStore.builder().denseDimension(denseDimension).build();
    }

    @Test
    void dimensionIsFixedByTheFirstVectorWhenNotConfigured() {
        InMemoryCaseStore s = InMemoryCaseStore.create();
        assertThat(s.denseDimension()).isEqualTo(OptionalInt.empty());
        s.upsert(List.of(IndexedCase.of(ChunkInput.of("t", "text only"))));
        assertThat(s.denseDimension()).isEmpty();
        s.upsert(List.of(new IndexedCase(ChunkInput.of("v", "vector"), new float[] {1, 2, 3}, null)));
        assertThat(s.denseDimension()).hasValue(3);
        assertThatThrownBy(() -> s.upsert(List.of(new IndexedCase(ChunkInput.of("w", "w"), new float[] {1, 2}, null))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("chunk 'w' has a dense vector of dimension 2 but the store's dense dimension is 3");
        // mixed dimensions within the very first batch are rejected too, naming the first vector's chunk
        InMemoryCaseStore fresh = InMemoryCaseStore.create();
        assertThatThrownBy(() -> fresh.upsert(List.of(
                new IndexedCase(ChunkInput.of("p", "p"), new float[] {1, 2, 3}, null),
                new IndexedCase(ChunkInput.of("q", "q"), new float[] {1, 2}, null))))
                .hasMessageContaining("chunk 'q'").hasMessageContaining("chunk 'p'");
        assertThat(fresh.count(all())).isZero();
        assertThat(fresh.denseDimension()).isEmpty();
    }

    @Test
    void legsWithDataFollowTheContent() {
        InMemoryCaseStore s = InMemoryCaseStore.create();
        assertThat(s.legsWithData()).isEmpty();
        s.upsert(List.of(IndexedCase.of(ChunkInput.of("t", "text only"))));
        assertThat(s.legsWithData()).containsExactly(Leg.BM25);
        s.upsert(List.of(new IndexedCase(ChunkInput.of("v", "vector"), new float[] {1, 0}, sparse(1, 1.0))));
        assertThat(s.legsWithData()).containsExactlyInAnyOrder(Leg.BM25, Leg.DENSE, Leg.SPARSE);
        s.delete(List.of("v"));
        assertThat(s.legsWithData()).containsExactly(Leg.BM25);
        // a requested leg without data is skipped: the BM25-only result keeps the full score scale
        List<SearchHit> hits = s.search(query("text", new float[] {1, 0}, sparse(1, 1.0), EnumSet.allOf(Leg.class),
                all(), 5, 5));
        assertThat(hits).extracting(SearchHit::id).containsExactly("t");
        assertThat(hits.get(0).fusedScore()).isEqualTo(1.0);
        assertThat(hits.get(0).legs()).containsOnlyKeys(Leg.BM25);
    }

    @Test
    void chunksReturnsASortedSnapshotOfMatchingChunks() {
        InMemoryCaseStore s = InMemoryCaseStore.create();
        s.upsert(smallCorpus());
        assertThat(s.chunks(matchKeyword("type", "method"))).extracting(ChunkInput::id).containsExactly("b", "c", "d");
        assertThat(s.chunks(all())).hasSize(5);
    }

    @Test
    void slotsFreedByDeletesAreReusedWithoutLeakingOldVectors() {
        InMemoryCaseStore s = InMemoryCaseStore.builder().denseDimension(2).build();
        List<IndexedCase> cases = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            cases.add(new IndexedCase(ChunkInput.of("old" + i, "old words"), new float[] {1, 0}, sparse(1, 1.0)));
        }
        s.upsert(cases);
        s.delete(cases.stream().map(c -> c.chunk().id()).toList());
        s.upsert(List.of(new IndexedCase(ChunkInput.of("new", "new words"), new float[] {0, 1}, sparse(2, 1.0))));
        assertThat(s.search(denseQuery(new float[] {1, 0}, all(), 10))).extracting(SearchHit::id).containsExactly("new");
        assertThat(s.search(sparseQuery(sparse(1, 1.0), all(), 10))).isEmpty();
        assertThat(s.search(bm25Query("old", all(), 10))).isEmpty();
        assertThat(s.count(all())).isEqualTo(1);
    }

    @Test
    void fingerprintDescribesTheLexicalConfiguration() {
        InMemoryCaseStore s = InMemoryCaseStore.builder().bm25Params(new Bm25Params(1.5, 0.5))
                .fieldWeight("name", 3.0).fieldWeight("body", 1.0).build();
        IndexFingerprint f = s.fingerprint();
        assertThat(f.bm25()).isEqualTo(new Bm25Params(1.5, 0.5));
        // the effective weights: ours over the BM25 index's defaults
        assertThat(f.fieldWeights()).containsEntry("name", 3.0).containsEntry("body", 1.0)
                .containsEntry("signature", dev.neuraltext.bm25.Bm25Index.DEFAULT_FIELD_WEIGHTS.get("signature"));
        assertThat(f.tokenizer()).startsWith("code-");
        assertThat(f.denseModel()).isEmpty();
        assertThat(f.denseDimension()).isZero();
    }

    @Test
    void builderRejectsBadSettings() {
        assertThatThrownBy(() -> InMemoryCaseStore.builder().denseDimension(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("denseDimension").hasMessageContaining("0");
        assertThatThrownBy(() -> InMemoryCaseStore.builder().fieldWeight("name", -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name").hasMessageContaining("-1");
    }

    @Test
    void concurrentSearchesWhileOneWriterUpsertsAndDeletesSeeConsistentState() throws Exception {
        InMemoryCaseStore s = InMemoryCaseStore.builder().denseDimension(4).build();
        s.upsert(smallCorpus());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(2);
        try {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                readers.add(pool.submit(() -> {
                    started.countDown();
                    int searches = 0;
                    while (!stop.get()) {
                        // each writer batch inserts a pair sharing a word: a search sees both or neither
                        List<SearchHit> hits = s.search(bm25Query("pairword", all(), 1000));
                        long pairs = hits.stream().filter(h -> h.id().startsWith("pair-")).count();
                        assertThat(pairs % 2).isZero();
                        assertThat(s.search(denseQuery(new float[] {1, 0, 0, 0}, all(), 3))).isNotEmpty();
                        searches++;
                    }
                    return searches;
                }));
            }
            Future<?> writer = pool.submit(() -> {
                started.await();
                for (int i = 0; i < 300; i++) {
                    s.upsert(List.of(
                            new IndexedCase(ChunkInput.of("pair-" + i + "-a", "pairword " + i), new float[] {1, 1, 0, 0}, null),
                            new IndexedCase(ChunkInput.of("pair-" + i + "-b", "pairword " + i), new float[] {0, 1, 1, 0}, null)));
                    if (i % 3 == 0) {
                        s.delete(List.of("pair-" + (i / 2) + "-a", "pair-" + (i / 2) + "-b"));
                    }
                }
                return null;
            });
            writer.get(30, TimeUnit.SECONDS);
            stop.set(true);
            for (Future<Integer> r : readers) {
                assertThat(r.get(30, TimeUnit.SECONDS)).isPositive();
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertThat(s.count(all())).isEqualTo(5 + 600 - 2 * 100);
    }
}
