package dev.neuraltext.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dense leg on its HNSW graph ({@link DenseSearch#ANN}) against the same store scanning exactly
 * ({@link DenseSearch#EXACT}) on clustered random data: recall, filters inside the graph and the exact fallback,
 * deletes and upserts, and a save/load round trip that does not rebuild the graph.
 */
class DenseGraphSearchTest {

    private static final int DIM = 32;
    private static final int CLUSTERS = 150;
    private static final int PER_CLUSTER = 12;
    private static final HnswParams SMALL = new HnswParams(16, 100, 100, 2);

    @TempDir
    Path tmp;

    private final Random random = new Random(7);
    private final float[][] centres = new float[CLUSTERS][];

    DenseGraphSearchTest() {
        for (int c = 0; c < CLUSTERS; c++) {
            centres[c] = gaussian(1);
        }
    }

    private float[] gaussian(double sigma) {
        float[] v = new float[DIM];
        for (int k = 0; k < DIM; k++) {
            v[k] = (float) (sigma * random.nextGaussian());
        }
        return v;
    }

    private float[] near(float[] centre, double sigma) {
        float[] v = gaussian(sigma);
        for (int k = 0; k < DIM; k++) {
            v[k] += centre[k];
        }
        return v;
    }

    private List<IndexedCase> corpus() {
        List<IndexedCase> cases = new ArrayList<>();
        for (int c = 0; c < CLUSTERS; c++) {
            for (int j = 0; j < PER_CLUSTER; j++) {
                String id = "c" + c + "-" + j;
                ChunkInput chunk = new ChunkInput(id, "text " + id, Map.of("cluster", "k" + (c % 10),
                        "rare", c == 3 && j < 4 ? "yes" : "no"), Map.of(), Map.of("body", "text " + id));
                cases.add(new IndexedCase(chunk, near(centres[c], 0.15), null));
            }
        }
        return cases;
    }

    private static InMemoryCaseStore store(DenseSearch mode, List<IndexedCase> cases) {
        InMemoryCaseStore store = InMemoryCaseStore.builder().denseSearch(mode).hnswParams(SMALL).build();
        // in batches, so the graph grows by inserts as well as by its first build
        for (int i = 0; i < cases.size(); i += 200) {
            store.upsert(cases.subList(i, Math.min(cases.size(), i + 200)));
        }
        return store;
    }

    private static List<String> dense(InMemoryCaseStore store, float[] q, int limit, PayloadFilter filter) {
        List<SearchHit> hits = store.search(new HybridQuery("", q, null, EnumSet.of(Leg.DENSE), filter, limit, limit,
                FusionMethod.defaultMethod(), false));
        List<String> ids = new ArrayList<>();
        hits.forEach(h -> ids.add(h.id()));
        return ids;
    }

    private double recallAt10(InMemoryCaseStore ann, InMemoryCaseStore exact, PayloadFilter filter, int queries) {
        long found = 0;
        long total = 0;
        for (int i = 0; i < queries; i++) {
            float[] q = near(centres[random.nextInt(CLUSTERS)], 0.3);
            Set<String> truth = new HashSet<>(dense(exact, q, 10, filter));
            for (String id : dense(ann, q, 10, filter)) {
                if (truth.contains(id)) {
                    found++;
                }
            }
            total += truth.size();
        }
        return (double) found / total;
    }

    @Test
    void theGraphFindsWhatTheExactScanFindsAndScoresItTheSame() {
        List<IndexedCase> cases = corpus();
        InMemoryCaseStore ann = store(DenseSearch.ANN, cases);
        InMemoryCaseStore exact = store(DenseSearch.EXACT, cases);
        assertThat(ann.denseUsesGraph()).isTrue();
        assertThat(exact.denseUsesGraph()).isFalse();
        assertThat(recallAt10(ann, exact, PayloadFilter.all(), 100)).isGreaterThanOrEqualTo(0.98);
        // candidates are rescored exactly: a hit's score is its exact cosine
        float[] q = near(centres[5], 0.3);
        SearchHit a = ann.search(new HybridQuery("", q, null, EnumSet.of(Leg.DENSE), PayloadFilter.all(), 1, 1,
                FusionMethod.defaultMethod(), false)).get(0);
        SearchHit e = exact.search(new HybridQuery("", q, null, EnumSet.of(Leg.DENSE), PayloadFilter.all(), 1, 1,
                FusionMethod.defaultMethod(), false)).get(0);
        assertThat(a.id()).isEqualTo(e.id());
        assertThat(a.legs().get(Leg.DENSE).score()).isEqualTo(e.legs().get(Leg.DENSE).score());
    }

    @Test
    void autoScansBelowTheThresholdAndBuildsNoGraph() {
        InMemoryCaseStore auto = store(DenseSearch.AUTO, corpus());
        assertThat(auto.denseUsesGraph()).isFalse();
        assertThat(auto.denseGraphBuilds()).isZero();
        assertThat(DenseSearch.AUTO_ANN_THRESHOLD).isGreaterThan(CLUSTERS * PER_CLUSTER);
    }

    @Test
    void filtersRunInsideTheGraphAndVerySelectiveOnesScanExactly() {
        List<IndexedCase> cases = corpus();
        InMemoryCaseStore ann = store(DenseSearch.ANN, cases);
        InMemoryCaseStore exact = store(DenseSearch.EXACT, cases);
        PayloadFilter tenth = PayloadFilter.matchKeyword("cluster", "k3");
        assertThat(recallAt10(ann, exact, tenth, 60)).isGreaterThanOrEqualTo(0.98);
        for (int i = 0; i < 20; i++) {
            float[] q = near(centres[random.nextInt(CLUSTERS)], 0.3);
            List<String> got = dense(ann, q, 10, tenth);
            assertThat(got).hasSize(10);
            for (String id : got) {
                int cluster = Integer.parseInt(id.substring(1, id.indexOf('-')));
                assertThat(cluster % 10).isEqualTo(3);
            }
        }
        // four chunks pass: fewer than the search keeps, so the exact scan answers, identically to the exact store
        PayloadFilter rare = PayloadFilter.matchKeyword("rare", "yes");
        float[] far = near(centres[100], 0.3);
        assertThat(dense(ann, far, 10, rare)).hasSize(4).containsExactlyElementsOf(dense(exact, far, 10, rare));
    }

    @Test
    void deletesAndUpsertsKeepTheGraphRightAndManyDeadNodesRebuildIt() {
        List<IndexedCase> cases = corpus();
        InMemoryCaseStore ann = store(DenseSearch.ANN, cases);
        InMemoryCaseStore exact = store(DenseSearch.EXACT, cases);
        int builds = ann.denseGraphBuilds();
        // delete every chunk of cluster 5: none comes back
        List<String> gone = new ArrayList<>();
        for (int j = 0; j < PER_CLUSTER; j++) {
            gone.add("c5-" + j);
        }
        ann.delete(gone);
        exact.delete(gone);
        assertThat(dense(ann, near(centres[5], 0.1), 20, PayloadFilter.all())).doesNotContainAnyElementsOf(gone);
        // move a chunk of cluster 7 into cluster 9: it is found there with its new vector
        IndexedCase moved = new IndexedCase(cases.get(7 * PER_CLUSTER).chunk(), centres[9].clone(), null);
        ann.upsert(List.of(moved));
        exact.upsert(List.of(moved));
        assertThat(dense(ann, centres[9], 1, PayloadFilter.all())).containsExactly(moved.chunk().id());
        assertThat(ann.denseGraphBuilds()).isEqualTo(builds);
        assertThat(recallAt10(ann, exact, PayloadFilter.all(), 60)).isGreaterThanOrEqualTo(0.98);
        // re-upsert 40% of the vectors: dead nodes pass a quarter of the graph and it is rebuilt
        List<IndexedCase> changed = new ArrayList<>();
        for (int i = 0; i < cases.size() * 4 / 10; i++) {
            IndexedCase c = cases.get(i);
            changed.add(new IndexedCase(c.chunk(), near(centres[random.nextInt(CLUSTERS)], 0.15), null));
        }
        ann.upsert(changed);
        exact.upsert(changed);
        assertThat(ann.denseGraphBuilds()).isGreaterThan(builds);
        assertThat(recallAt10(ann, exact, PayloadFilter.all(), 60)).isGreaterThanOrEqualTo(0.98);
    }

    @Test
    void aSavedGraphIsLoadedNotRebuiltAndSearchesTheSame() throws IOException {
        List<IndexedCase> cases = corpus();
        InMemoryCaseStore ann = store(DenseSearch.ANN, cases);
        ann.delete(List.of("c1-0", "c1-1", "c2-5")); // dead nodes and holes in the slots
        IndexFingerprint fp = ann.fingerprint().withDense("test-model", DIM);
        Path dir = tmp.resolve("index");
        ann.save(dir, fp);
        String gen = Files.readString(dir.resolve("CURRENT")).trim();
        assertThat(dir.resolve(gen).resolve(IndexFiles.DENSE_GRAPH)).exists();

        InMemoryCaseStore loaded = InMemoryCaseStore.builder().denseSearch(DenseSearch.ANN).hnswParams(SMALL)
                .load(dir, fp);
        assertThat(loaded.denseUsesGraph()).isTrue();
        assertThat(loaded.denseGraphBuilds()).isZero();
        for (int i = 0; i < 30; i++) {
            float[] q = near(centres[random.nextInt(CLUSTERS)], 0.3);
            assertThat(dense(loaded, q, 10, PayloadFilter.all())).isEqualTo(dense(ann, q, 10, PayloadFilter.all()));
        }
        // the loaded graph keeps growing: a new chunk is found
        ChunkInput fresh = ChunkInput.of("fresh", "brand new");
        float[] v = gaussian(1);
        loaded.upsert(List.of(new IndexedCase(fresh, v, null)));
        assertThat(dense(loaded, v, 1, PayloadFilter.all())).containsExactly("fresh");
        assertThat(loaded.denseGraphBuilds()).isZero();

        // an exact store loads the same index without a graph; an auto store below the threshold drops it too
        assertThat(InMemoryCaseStore.builder().denseSearch(DenseSearch.EXACT).load(dir, fp).denseUsesGraph()).isFalse();
        assertThat(InMemoryCaseStore.load(dir, fp).denseUsesGraph()).isFalse();
    }

    @Test
    void anIndexSavedWithoutAGraphGetsOneBuiltOnLoadWhenWanted() {
        InMemoryCaseStore exact = store(DenseSearch.EXACT, corpus());
        IndexFingerprint fp = exact.fingerprint().withDense("test-model", DIM);
        Path dir = tmp.resolve("exact");
        exact.save(dir, fp);
        InMemoryCaseStore loaded = InMemoryCaseStore.builder().denseSearch(DenseSearch.ANN).load(dir, fp);
        assertThat(loaded.denseUsesGraph()).isTrue();
        assertThat(loaded.denseGraphBuilds()).isEqualTo(1);
    }

    @Test
    void aDamagedGraphFileIsReportedAsCorruption() throws IOException {
        InMemoryCaseStore ann = store(DenseSearch.ANN, corpus());
        IndexFingerprint fp = ann.fingerprint().withDense("test-model", DIM);
        Path dir = tmp.resolve("damaged");
        ann.save(dir, fp);
        Path graph;
        try (Stream<Path> files = Files.walk(dir)) {
            graph = files.filter(p -> p.getFileName().toString().equals(IndexFiles.DENSE_GRAPH)).findFirst()
                    .orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(graph);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(graph, bytes);
        assertThatThrownBy(() -> InMemoryCaseStore.builder().denseSearch(DenseSearch.ANN).load(dir, fp))
                .isInstanceOf(CorruptIndexException.class).hasMessageContaining(IndexFiles.DENSE_GRAPH);
    }

    @Test
    void parametersAreValidatedWithTheValueInTheMessage() {
        assertThatThrownBy(() -> new HnswParams(1, 100, 100, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConnections must be in [2, 512], got 1");
        assertThatThrownBy(() -> new HnswParams(16, 0, 100, 1)).hasMessage("beamWidth must be in [1, 3200], got 0");
        assertThatThrownBy(() -> new HnswParams(16, 100, 20_000, 1))
                .hasMessage("efSearch must be in [1, 10000], got 20000");
        assertThatThrownBy(() -> new HnswParams(16, 100, 100, 0)).hasMessage("buildThreads must be in [1, 256], got 0");
        assertThatThrownBy(() -> InMemoryCaseStore.builder().denseSearch(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("mode");
        assertThat(HnswParams.defaults()).isEqualTo(new HnswParams(16, 100, 100,
                Runtime.getRuntime().availableProcessors()));
        assertThatThrownBy(() -> new HnswParams(16, 100, 100, 1, -1))
                .hasMessage("efSearchScale must be in [0, 1000000000] (0: a fixed beam), got -1");
    }

    @Test
    void theBeamGrowsWithTheGraphBeyondTheScale() {
        HnswParams p = HnswParams.defaults();
        assertThat(p.efSearchScale()).isEqualTo(HnswParams.DEFAULT_EF_SEARCH_SCALE);
        assertThat(p.beam(10, 1_000)).isEqualTo(100); // efSearch
        assertThat(p.beam(300, 1_000)).isEqualTo(300); // never below the limit
        assertThat(p.beam(100, 125_000)).isEqualTo(100);
        assertThat(p.beam(100, 125_001)).isEqualTo(101); // rounded up
        assertThat(p.beam(100, 1_000_000)).isEqualTo(800);
        assertThat(p.beam(100, 500_000_000)).isEqualTo(HnswParams.MAX_BEAM);
        assertThat(p.beam(20_000, 500_000_000)).isEqualTo(20_000);
        assertThat(p.withEfSearchScale(0).beam(100, 1_000_000)).isEqualTo(100);
    }

    @Test
    void aBeamScaledToTheGraphFindsWhatAFixedNarrowOneMisses() {
        List<IndexedCase> cases = corpus(); // 1,800 vectors
        InMemoryCaseStore exact = store(DenseSearch.EXACT, cases);
        InMemoryCaseStore fixed = InMemoryCaseStore.builder().denseSearch(DenseSearch.ANN)
                .hnswParams(new HnswParams(8, 32, 1, 2, 0)).build();
        fixed.upsert(cases);
        // the same graph parameters, but a beam of 1 per 20 vectors: 90 here
        InMemoryCaseStore scaled = InMemoryCaseStore.builder().denseSearch(DenseSearch.ANN)
                .hnswParams(new HnswParams(8, 32, 1, 2, 20)).build();
        scaled.upsert(cases);
        double fixedRecall = recallAt10WithLimit(fixed, exact, 10, 100);
        double scaledRecall = recallAt10WithLimit(scaled, exact, 10, 100);
        assertThat(scaledRecall).as("recall@10 with a scaled beam (fixed: %s)", fixedRecall)
                .isGreaterThan(fixedRecall + 0.05).isGreaterThanOrEqualTo(0.9);
    }

    private double recallAt10WithLimit(InMemoryCaseStore ann, InMemoryCaseStore exact, int limit, int queries) {
        Random queryRandom = new Random(21);
        long found = 0;
        long total = 0;
        for (int i = 0; i < queries; i++) {
            float[] q = centres[queryRandom.nextInt(CLUSTERS)].clone();
            for (int k = 0; k < DIM; k++) {
                q[k] += (float) (0.3 * queryRandom.nextGaussian());
            }
            Set<String> truth = new HashSet<>(dense(exact, q, limit, PayloadFilter.all()));
            for (String id : dense(ann, q, limit, PayloadFilter.all())) {
                if (truth.contains(id)) {
                    found++;
                }
            }
            total += truth.size();
        }
        return (double) found / total;
    }
}
