package dev.neuraltext.retrieve;

import static dev.neuraltext.filter.PayloadFilter.all;
import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.RetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.Reranker;
import dev.neuraltext.encode.SparseEncoder;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexedCase;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HybridCaseRetrieverTest {

    /** An embedder whose vectors come from a table (unknown texts get {@code fallback}); records its calls. */
    static final class TableEmbedder implements Embedder {
        final Map<String, float[]> table = new HashMap<>();
        final List<List<String>> calls = new CopyOnWriteArrayList<>();
        final List<TextRole> roles = new CopyOnWriteArrayList<>();
        final int dimension;
        float[] fallback;
        int returnedLength;
        RuntimeException failure;

        TableEmbedder(int dimension) {
            this.dimension = dimension;
            this.returnedLength = dimension;
            this.fallback = new float[dimension];
            this.fallback[dimension - 1] = 1;
        }

        TableEmbedder put(String text, float... v) {
            table.put(text, v);
            return this;
        }

        @Override
        public int dimension() {
            return dimension;
        }

        @Override
        public String modelId() {
            return "table-embedder";
        }

        @Override
        public List<float[]> embed(List<String> texts, TextRole role) {
            if (failure != null) {
                throw failure;
            }
            calls.add(List.copyOf(texts));
            roles.add(role);
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                float[] v = table.getOrDefault(t, fallback);
                out.add(java.util.Arrays.copyOf(v, returnedLength));
            }
            return out;
        }
    }

    static final class TableSparseEncoder implements SparseEncoder {
        final Map<String, SparseVector> table = new HashMap<>();

        @Override
        public String modelId() {
            return "table-sparse";
        }

        @Override
        public List<SparseVector> encode(List<String> texts, TextRole role) {
            return texts.stream().map(t -> table.getOrDefault(t, SparseVector.empty())).collect(Collectors.toList());
        }
    }

    /** Scores passages from a table; records the passages it saw. */
    static final class TableReranker implements Reranker {
        final Map<String, Double> table = new HashMap<>();
        final List<List<String>> seen = new CopyOnWriteArrayList<>();

        @Override
        public String modelId() {
            return "table-reranker";
        }

        @Override
        public double[] score(String query, List<String> passages) {
            seen.add(List.copyOf(passages));
            return passages.stream().mapToDouble(p -> table.getOrDefault(p, 0.0)).toArray();
        }
    }

    /**
     * Four chunks where BM25 ("needle") ranks A, B and the dense leg (query e1) ranks C (1.0), B (0.99), D (0.6), A (0):
     * RRF (k = 60) gives B = (1/62 + 1/62) / (2/61) = 0.98387, A = (1/61 + 1/64) / (2/61) = 0.97656,
     * C = (1/61) / (2/61) = 0.5, D = (1/63) / (2/61) = 0.48413, so B wins although no leg ranks it first.
     */
    private static List<ChunkInput> chunks() {
        return List.of(
                ChunkInput.of("A", "needle needle", Map.of("kind", "x")),
                ChunkInput.of("B", "needle hay hay straw", Map.of("kind", "y")),
                ChunkInput.of("C", "cobalt", Map.of("kind", "x")),
                ChunkInput.of("D", "dune", Map.of("kind", "y")));
    }

    private static TableEmbedder embedder() {
        return new TableEmbedder(3)
                .put("needle needle", 0, 1, 0)
                .put("needle hay hay straw", 0.99f, (float) Math.sqrt(1 - 0.99 * 0.99), 0)
                .put("cobalt", 1, 0, 0)
                .put("dune", 0.6f, 0, 0.8f)
                .put("needle", 1, 0, 0);
    }

    /** Explicit equal-weight RRF (k = 60), which the hand-computed expectations of {@link #chunks()} assume. */
    private static final FusionMethod RRF_60 = FusionMethod.defaultMethod();

    private static SearchRequest.Builder request(String text) {
        return SearchRequest.builder(text).adaptive(false);
    }

    private static List<String> ids(SearchResponse r) {
        return r.hits().stream().map(SearchHit::id).collect(Collectors.toList());
    }

    @Test
    void fusedRankingFollowsHandComputedRrf() {
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(embedder()).build();
        r.index(chunks());
        // an explicit fusion method is honoured exactly (no query-shape weighting)
        SearchResponse both = r.search(request("needle").limit(4).fusion(FusionMethod.defaultMethod()).build());
        assertThat(both.legsRun()).containsExactlyInAnyOrder(Leg.BM25, Leg.DENSE);
        assertThat(ids(both)).containsExactly("B", "A", "C", "D");
        double norm = 2.0 / 61;
        assertThat(both.hits().get(0).fusedScore()).isCloseTo((2.0 / 62) / norm, within(1e-9));
        assertThat(both.hits().get(1).fusedScore()).isCloseTo((1.0 / 61 + 1.0 / 64) / norm, within(1e-9));
        assertThat(both.hits().get(2).fusedScore()).isCloseTo(0.5, within(1e-9));
        assertThat(both.hits().get(3).fusedScore()).isCloseTo((1.0 / 63) / norm, within(1e-9));
        assertThat(both.hits().get(0).legs().get(Leg.DENSE).rank()).isEqualTo(2);
        assertThat(both.hits().get(0).legs().get(Leg.BM25).rank()).isEqualTo(2);
        assertThat(both.reranked()).isFalse();

        assertThat(ids(r.search(request("needle").limit(4).legs(Leg.DENSE).build()))).containsExactly("C", "B", "D", "A");
        assertThat(ids(r.search(request("needle").limit(4).legs(Leg.BM25).build()))).containsExactly("A", "B");
        assertThat(ids(r.search(request("needle").limit(4).filter(matchKeyword("kind", "x")).build())))
                .containsExactly("A", "C");
    }

    @Test
    void automaticFusionWeightsBm25UpForIdentifierShapedQueries() {
        TableEmbedder e = embedder().put("where is the needle", 1, 0, 0); // same dense ranking as "needle"
        RecordingStore store = new RecordingStore(InMemoryCaseStore.create());
        HybridCaseRetriever r = HybridCaseRetriever.builder(store).embedder(e).autoFusion(GradedFusion.shapeSwitch())
                .build();
        r.index(chunks());
        // "needle" is a one-word keyword query: RRF k = 20, BM25 weight 10, dense 1; norm = 10/21 + 1/21 = 11/21.
        // BM25 ranks A, B; dense ranks C, B, D, A.
        SearchResponse kw = r.search(request("needle").limit(4).build());
        assertThat(store.queries.get(0).fusion()).isEqualTo(new FusionMethod.Rrf(20, Map.of(Leg.BM25, 10.0)));
        double norm = 11.0 / 21;
        assertThat(ids(kw)).containsExactly("A", "B", "C", "D"); // BM25's first stays first
        assertThat(kw.hits().get(0).fusedScore()).isCloseTo((10.0 / 21 + 1.0 / 24) / norm, within(1e-9));
        assertThat(kw.hits().get(1).fusedScore()).isCloseTo((10.0 / 22 + 1.0 / 22) / norm, within(1e-9));
        assertThat(kw.hits().get(2).fusedScore()).isCloseTo((1.0 / 21) / norm, within(1e-9));
        assertThat(kw.hits().get(3).fusedScore()).isCloseTo((1.0 / 23) / norm, within(1e-9));

        // natural language: RRF k = 20, equal weights; B = (2/22) / (2/21) beats A = (1/21 + 1/24) / (2/21)
        SearchResponse nl = r.search(request("where is the needle").limit(4).build());
        assertThat(store.queries.get(1).fusion()).isEqualTo(new FusionMethod.Rrf(20, Map.of(Leg.BM25, 1.0)));
        assertThat(ids(nl)).containsExactly("B", "A", "C", "D");
        assertThat(nl.hits().get(0).fusedScore()).isCloseTo(21.0 / 22, within(1e-9));
        assertThat(nl.hits().get(1).fusedScore()).isCloseTo((1.0 / 21 + 1.0 / 24) / (2.0 / 21), within(1e-9));

        // an explicit method is passed through untouched
        FusionMethod explicit = FusionMethod.alpha(0.3);
        r.search(request("needle").limit(4).fusion(explicit).build());
        assertThat(store.queries.get(2).fusion()).isEqualTo(explicit);
        assertThat(SearchRequest.of("needle", 4).autoFusion()).isTrue();
        assertThat(request("needle").fusion(explicit).build().autoFusion()).isFalse();
    }

    @Test
    void automaticFusionSettingsAreConfigurable() {
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create())
                .autoFusion(new GradedFusion(5, Math.log(0.5), 0, 0, Math.log(8))).build();
        assertThat(((FusionMethod.Rrf) r.fusionFor("StringUtils isBlank")).k()).isEqualTo(5);
        assertThat(((FusionMethod.Rrf) r.fusionFor("StringUtils isBlank")).weight(Leg.BM25))
                .isCloseTo(4.0, within(1e-9));
        assertThat(((FusionMethod.Rrf) r.fusionFor("how are fused scores normalised")).weight(Leg.BM25))
                .isCloseTo(0.5, within(1e-9));
        HybridCaseRetriever d = HybridCaseRetriever.builder(InMemoryCaseStore.create()).build();
        assertThat(d.fusionFor("ChatModel")).isEqualTo(GradedFusion.defaults().methodFor("ChatModel"));
    }

    @Test
    void aRequestedLegWithoutEncoderIsSkippedAndReported() {
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).build();
        assertThat(r.availableLegs()).containsExactly(Leg.BM25);
        r.index(chunks());
        SearchResponse resp = r.search(request("needle").legs(Leg.DENSE, Leg.BM25).build());
        assertThat(resp.legsRun()).containsExactly(Leg.BM25);
        assertThat(ids(resp)).containsExactly("A", "B");
        SearchResponse none = r.search(request("needle").legs(Leg.SPARSE).build());
        assertThat(none.legsRun()).isEmpty();
        assertThat(none.hits()).isEmpty();
    }

    @Test
    void sparseLegRunsWithAnEncoder() {
        TableSparseEncoder sparse = new TableSparseEncoder();
        sparse.table.put("dune", SparseVector.of(Map.of(7, 2f)));
        sparse.table.put("cobalt", SparseVector.of(Map.of(7, 1f, 8, 1f)));
        sparse.table.put("sand", SparseVector.of(Map.of(7, 1f)));
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).sparseEncoder(sparse).build();
        assertThat(r.availableLegs()).containsExactlyInAnyOrder(Leg.BM25, Leg.SPARSE);
        r.index(chunks());
        SearchResponse resp = r.search(request("sand").build());
        assertThat(resp.legsRun()).containsExactlyInAnyOrder(Leg.BM25, Leg.SPARSE);
        assertThat(ids(resp)).containsExactly("D", "C");
        assertThat(resp.hits().get(0).legs().get(Leg.SPARSE).score()).isEqualTo(2.0);
    }

    @Test
    void indexEncodesInBatchesWithTheDocumentRoleAndQueriesWithTheQueryRole() {
        TableEmbedder e = embedder();
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(e).indexBatchSize(3).build();
        List<ChunkInput> many = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            many.add(ChunkInput.of("c" + i, "text " + i));
        }
        r.index(many);
        assertThat(e.calls).extracting(List::size).containsExactly(3, 3, 1);
        assertThat(e.roles).containsOnly(TextRole.DOCUMENT);
        assertThat(r.store().count(all())).isEqualTo(7);
        e.calls.clear();
        e.roles.clear();
        r.search(request("text").build());
        assertThat(e.calls).containsExactly(List.of("text"));
        assertThat(e.roles).containsExactly(TextRole.QUERY);
    }

    @Test
    void anEmbedderReturningVectorsOfTheWrongLengthFailsAtIndexTime() {
        TableEmbedder e = embedder();
        e.returnedLength = 2;
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(e).build();
        assertThatThrownBy(() -> r.index(chunks()))
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("table-embedder").hasMessageContaining("dimension 3")
                .hasMessageContaining("length 2").hasMessageContaining("'A'");
        assertThat(r.store().count(all())).isZero();
    }

    @Test
    void anEmbedderWhoseDimensionDiffersFromTheStoreFailsAtIndexTime() {
        InMemoryCaseStore store = InMemoryCaseStore.builder().denseDimension(384).build();
        HybridCaseRetriever r = HybridCaseRetriever.builder(store).embedder(embedder()).build();
        assertThatThrownBy(() -> r.index(chunks()))
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("dimension 3").hasMessageContaining("384");
        assertThat(store.count(all())).isZero();
    }

    @Test
    void encoderAndStoreFailuresAreWrappedNamingTheStepWithTheCause() {
        TableEmbedder e = embedder();
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(e).build();
        r.index(chunks());
        IllegalStateException boom = new IllegalStateException("model exploded");
        e.failure = boom;
        assertThatThrownBy(() -> r.search(request("needle").build()))
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("embedding the query").hasCause(boom);
        assertThatThrownBy(() -> r.index(chunks()))
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("embedding a batch").hasCause(boom);
        // the project's own exceptions pass through unchanged
        RetriableNeuralTextException retriable = new RetriableNeuralTextException("busy", null);
        e.failure = retriable;
        assertThatThrownBy(() -> r.search(request("needle").build())).isSameAs(retriable);

        RuntimeException storeFailure = new RuntimeException("connection reset");
        HybridCaseRetriever broken = HybridCaseRetriever.builder(new FailingStore(storeFailure)).build();
        assertThatThrownBy(() -> broken.search(request("needle").build()))
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("searching the store").hasCause(storeFailure);
        assertThatThrownBy(() -> broken.index(chunks()))
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("upserting").hasCause(storeFailure);
        assertThatThrownBy(() -> broken.delete(List.of("A")))
                .isInstanceOf(NeuralTextException.class).hasCause(storeFailure);
    }

    @Test
    void overFetchAsksTheStoreForFetchSizeCandidatesAndDeeperLegs() {
        RecordingStore store = new RecordingStore(InMemoryCaseStore.create());
        HybridCaseRetriever ranked = HybridCaseRetriever.builder(store).ranking(RepositoryRanking.wholeRepository())
                .build();
        ranked.index(chunks());
        ranked.search(request("needle").limit(10).build());
        // the ranking stage re-orders its depth of candidates: the store is asked for that many
        assertThat(store.queries.remove(0).limit()).isEqualTo(RepositoryRanking.DEFAULT_DEPTH);
        HybridCaseRetriever r = HybridCaseRetriever.builder(store).ranking(RepositoryRanking.off()).build();
        r.search(request("needle").limit(10).build());
        assertThat(store.queries.get(0).limit()).isEqualTo(20); // default over-fetch 2x
        assertThat(store.queries.get(0).legLimit()).isEqualTo(100);
        r.search(request("needle").limit(80).build());
        assertThat(store.queries.get(1).limit()).isEqualTo(160);
        assertThat(store.queries.get(1).legLimit()).isEqualTo(160);
        HybridCaseRetriever reranking = HybridCaseRetriever.builder(store).reranker(new TableReranker()).build();
        reranking.search(request("needle").limit(10).build());
        assertThat(store.queries.get(2).limit()).isEqualTo(50); // rerank depth
    }

    @Test
    void rerankerScoresReorderTheShortlistAndBecomeTheScore() {
        TableReranker reranker = new TableReranker();
        reranker.table.put("dune", 0.9);
        reranker.table.put("cobalt", 0.7);
        reranker.table.put("needle needle", 0.2);
        reranker.table.put("needle hay hay straw", 0.1);
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(embedder())
                .reranker(reranker).rerankDepth(3).build();
        r.index(chunks());
        SearchResponse resp = r.search(request("needle").fusion(RRF_60).limit(2).build());
        assertThat(resp.reranked()).isTrue();
        // the fused top 3 are B, A, C; D (fused 4th) is below the depth and never seen by the reranker
        assertThat(reranker.seen).containsExactly(List.of("needle hay hay straw", "needle needle", "cobalt"));
        assertThat(ids(resp)).containsExactly("C", "A");
        assertThat(resp.hits().get(0).score()).isEqualTo(0.7);
        assertThat(resp.hits().get(0).fusedScore()).isCloseTo(0.5, within(1e-9));

        SearchResponse notReranked = r.search(request("needle").fusion(RRF_60).limit(2).rerank(false).build());
        assertThat(notReranked.reranked()).isFalse();
        assertThat(ids(notReranked)).containsExactly("B", "A");

        reranker.table.put("cobalt", 1.5);
        assertThatThrownBy(() -> r.search(request("needle").fusion(RRF_60).limit(2).build()))
                .isInstanceOf(NonRetriableNeuralTextException.class).hasMessageContaining("1.5")
                .hasMessageContaining("[0, 1]");
    }

    @Test
    void adaptiveExtensionExtendsOnlyWhenRequestedButAlwaysReportsAboveThreshold() {
        // relative floor off: this test is about the absolute floor and the gap on hand-computed RRF (k = 60) scores
        AdaptiveExtension lenient = AdaptiveExtension.builder().floor(0.45).maxGap(0.6).relativeFloor(0).build();
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(embedder())
                .adaptiveExtension(lenient).build();
        r.index(chunks());
        SearchResponse extended = r.search(SearchRequest.builder("needle").fusion(RRF_60).limit(2).adaptive(true).build());
        // fetch 4 candidates (2x); all four fused scores are >= 0.45 and within 0.6 of each other
        assertThat(extended.extended()).isTrue();
        assertThat(ids(extended)).containsExactly("B", "A", "C", "D");
        assertThat(extended.totalAboveThreshold()).isEqualTo(4);
        SearchResponse cut = r.search(SearchRequest.builder("needle").fusion(RRF_60).limit(2).adaptive(false).build());
        assertThat(cut.extended()).isFalse();
        assertThat(ids(cut)).containsExactly("B", "A");
        assertThat(cut.totalAboveThreshold()).isEqualTo(4);
        assertThat(cut.summary()).isEqualTo("2 results, 4 above threshold");
    }

    @Test
    void timingsAreFilledAndConsistent() {
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(embedder()).build();
        r.index(chunks());
        SearchResponse resp = r.search(request("needle").build());
        assertThat(resp.timings().queryEncoding()).isPositive();
        assertThat(resp.timings().store()).isPositive();
        assertThat(resp.timings().rerank()).isGreaterThanOrEqualTo(java.time.Duration.ZERO);
        assertThat(resp.timings().total()).isGreaterThanOrEqualTo(resp.timings().store().plus(resp.timings().queryEncoding()));
    }

    @Test
    void fingerprintCombinesStoreConfigurationAndModels() {
        InMemoryCaseStore store = InMemoryCaseStore.create();
        HybridCaseRetriever r = HybridCaseRetriever.builder(store).embedder(embedder())
                .sparseEncoder(new TableSparseEncoder()).build();
        IndexFingerprint f = r.fingerprint();
        assertThat(f.tokenizer()).isEqualTo(store.fingerprint().tokenizer());
        assertThat(f.denseModel()).isEqualTo("table-embedder");
        assertThat(f.denseDimension()).isEqualTo(3);
        assertThat(f.sparseModel()).isEqualTo("table-sparse");
        assertThat(HybridCaseRetriever.builder(store).build().fingerprint()).isEqualTo(store.fingerprint());
        assertThat(f.describe()).contains("dense 'table-embedder' (3)").contains("sparse 'table-sparse'");
    }

    @Test
    void builderRejectsBadSettings() {
        assertThatThrownBy(() -> HybridCaseRetriever.builder(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("store");
        assertThatThrownBy(() -> HybridCaseRetriever.builder(InMemoryCaseStore.create()).rerankDepth(0))
                .hasMessageContaining("rerankDepth");
        assertThatThrownBy(() -> HybridCaseRetriever.builder(InMemoryCaseStore.create()).indexBatchSize(-1))
                .hasMessageContaining("indexBatchSize").hasMessageContaining("-1");
        assertThatThrownBy(() -> HybridCaseRetriever.builder(InMemoryCaseStore.create()).autoFusion(null))
                .hasMessageContaining("autoFusion");
    }

    @Test
    void searchesDuringIndexingNeverFailAndSeeWholeBatches() throws Exception {
        TableEmbedder e = new TableEmbedder(8);
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(e).indexBatchSize(10).build();
        List<ChunkInput> all = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            all.add(ChunkInput.of(String.format("doc-%04d", i), "shared term number " + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(2);
        try {
            List<Future<Integer>> searchers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                searchers.add(pool.submit(() -> {
                    started.countDown();
                    int n = 0;
                    int lastSeen = 0;
                    while (!done.get() || n == 0) {
                        SearchResponse resp = r.search(SearchRequest.builder("shared term").limit(1000).adaptive(false).build());
                        // batches are upserted whole: the store never shows a partial batch of 10
                        assertThat(resp.hits().size() % 10).isZero();
                        assertThat(resp.hits().size()).isGreaterThanOrEqualTo(lastSeen);
                        lastSeen = resp.hits().size();
                        n++;
                    }
                    return n;
                }));
            }
            started.await();
            r.index(all);
            done.set(true);
            for (Future<Integer> f : searchers) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isPositive();
            }
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
        assertThat(r.search(SearchRequest.builder("shared term").limit(1000).adaptive(false).build()).hits()).hasSize(600);
    }

    /** Delegates to a real store and records the queries. */
    static final class RecordingStore implements CaseStore {
        final CaseStore delegate;
        final List<HybridQuery> queries = Collections.synchronizedList(new ArrayList<>());

        RecordingStore(CaseStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public void upsert(List<IndexedCase> cases) {
            delegate.upsert(cases);
        }

        @Override
        public void delete(Collection<String> ids) {
            delegate.delete(ids);
        }

        @Override
        public void deleteWhere(PayloadFilter filter) {
            delegate.deleteWhere(filter);
        }

        @Override
        public long count(PayloadFilter filter) {
            return delegate.count(filter);
        }

        @Override
        public List<SearchHit> search(HybridQuery query) {
            queries.add(query);
            return delegate.search(query);
        }
    }

    static final class FailingStore implements CaseStore {
        final RuntimeException failure;

        FailingStore(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void upsert(List<IndexedCase> cases) {
            throw failure;
        }

        @Override
        public void delete(Collection<String> ids) {
            throw failure;
        }

        @Override
        public void deleteWhere(PayloadFilter filter) {
            throw failure;
        }

        @Override
        public long count(PayloadFilter filter) {
            throw failure;
        }

        @Override
        public List<SearchHit> search(HybridQuery query) {
            throw failure;
        }
    }
}
