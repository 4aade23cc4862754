package dev.neuraltext.store;

import static dev.neuraltext.filter.PayloadFilter.all;
import static dev.neuraltext.filter.PayloadFilter.between;
import static dev.neuraltext.filter.PayloadFilter.matchAny;
import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link CaseStore} must have. A store implementation's test extends this class and implements
 * {@link #createStore(int)}; the embedded store ({@code InMemoryCaseStoreTest}) and the Qdrant store run the same
 * methods, which is how we know they agree.
 *
 * <p>Assertions stick to what any correct implementation guarantees: exact orders are asserted only for the dense
 * (cosine) and sparse (dot product) legs, which are exact computations; BM25 is only asserted to put the one chunk
 * containing every query term first, since BM25 variants (field weighting, IDF formula, tokenisation) rank the rest
 * differently. Vectors are compared with a tolerance of {@value #SCORE_TOLERANCE}.
 *
 * <p>For your own store: depend on {@code neural-text-core}'s test-jar ({@code <type>test-jar</type>}, test scope)
 * plus {@code junit-jupiter} and {@code assertj-core}, extend this class in any package and implement
 * {@link #createStore(int)}; the helpers are {@code protected}. A store that wraps another must pass on the declared
 * capabilities ({@link CaseStore#denseDimension()} and the like) too. The project's consumer build
 * ({@code examples/src/it/consumer}) runs this contract against such a user-side store.
 */
public abstract class CaseStoreContract {

    /** Tolerance on raw cosine / dot-product scores (stores may compute in float). */
    protected static final double SCORE_TOLERANCE = 1e-4;

    private final List<CaseStore> created = new ArrayList<>();

    /**
     * A new, empty store whose dense vectors have {@code denseDimension} components (fixed up front or by the first
     * vector, as the store prefers). Each call must return an independent store (e.g. a fresh collection).
     */
    protected abstract CaseStore createStore(int denseDimension);

    /** Creates a store and remembers it for {@link #closeStores()}. */
    protected final CaseStore store(int denseDimension) {
        CaseStore s = createStore(denseDimension);
        created.add(s);
        return s;
    }

    @AfterEach
    protected void closeStores() throws Exception {
        for (CaseStore s : created) {
            s.close();
        }
        created.clear();
    }

    // ------------------------------------------------------------------ helpers

    protected static ChunkInput chunk(String id, String text, Map<String, String> metadata) {
        return ChunkInput.of(id, text, metadata);
    }

    protected static HybridQuery query(String text, float[] dense, SparseVector sparse, Set<Leg> legs,
                                       PayloadFilter filter, int legLimit, int limit) {
        return new HybridQuery(text, dense, sparse, legs, filter, legLimit, limit, FusionMethod.defaultMethod(), true);
    }

    protected static HybridQuery denseQuery(float[] dense, PayloadFilter filter, int limit) {
        return query("", dense, null, EnumSet.of(Leg.DENSE), filter, limit, limit);
    }

    protected static HybridQuery sparseQuery(SparseVector sparse, PayloadFilter filter, int limit) {
        return query("", null, sparse, EnumSet.of(Leg.SPARSE), filter, limit, limit);
    }

    protected static HybridQuery bm25Query(String text, PayloadFilter filter, int limit) {
        return query(text, null, null, EnumSet.of(Leg.BM25), filter, limit, limit);
    }

    protected static List<String> ids(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::id).collect(Collectors.toList());
    }

    protected static SparseVector sparse(Object... indexThenWeight) {
        Map<Integer, Float> m = new TreeMap<>();
        for (int i = 0; i < indexThenWeight.length; i += 2) {
            m.put((Integer) indexThenWeight[i], ((Number) indexThenWeight[i + 1]).floatValue());
        }
        return SparseVector.of(m);
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /** A small corpus: three kinds, list tags, an integer field, 4-dim vectors and sparse vectors. */
    protected static List<IndexedCase> smallCorpus() {
        List<IndexedCase> cases = new ArrayList<>();
        cases.add(new IndexedCase(new ChunkInput("a", "class HttpServerConfig holds the port and host",
                Map.of("type", "type", "lang", "java", "line", "10"), Map.of("tags", List.of("http", "config")), Map.of()),
                new float[] {1, 0, 0, 0}, sparse(1, 2.0, 2, 1.0)));
        cases.add(new IndexedCase(new ChunkInput("b", "start the server and listen on a socket",
                Map.of("type", "method", "lang", "java", "line", "20"), Map.of("tags", List.of("http")), Map.of()),
                new float[] {0.8f, 0.6f, 0, 0}, sparse(1, 1.0, 3, 1.0)));
        cases.add(new IndexedCase(new ChunkInput("c", "read the config file from disk",
                Map.of("type", "method", "lang", "java", "line", "30"), Map.of("tags", List.of("io")), Map.of()),
                new float[] {0, 1, 0, 0}, sparse(2, 1.0, 4, 3.0)));
        cases.add(new IndexedCase(new ChunkInput("d", "parse dates in several calendar formats",
                Map.of("type", "method", "lang", "kotlin", "line", "40"), Map.of(), Map.of()),
                new float[] {0, 0, 1, 0}, sparse(5, 1.0)));
        cases.add(new IndexedCase(new ChunkInput("e", "markdown notes about retry policies",
                Map.of("type", "section", "line", "50"), Map.of("tags", List.of("retry", "http")), Map.of()),
                new float[] {0, 0, 0, 1}, sparse(6, 1.0)));
        return cases;
    }

    // ------------------------------------------------------------------ declared capabilities

    @Test
    public void declaresEveryLegOnceItHoldsChunksWithBothVectorKinds() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        assertThat(s.legsWithData()).contains(Leg.BM25, Leg.DENSE, Leg.SPARSE);
    }

    @Test
    public void denseDimensionIsTheDimensionOfItsVectorsWhenDeclared() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        // a store may leave it undeclared (the SPI default); one that declares it must declare the right one
        s.denseDimension().ifPresent(d -> assertThat(d).isEqualTo(4));
    }

    @Test
    public void fingerprintIsLexicalAndStableAcrossWrites() {
        CaseStore s = store(4);
        IndexFingerprint before = s.fingerprint();
        assertThat(before).isNotNull();
        assertThat(before.lexicalPart()).isEqualTo(before); // the retriever adds the models
        s.upsert(smallCorpus());
        assertThat(s.fingerprint()).isEqualTo(before);
    }

    // ------------------------------------------------------------------ writes and counts

    @Test
    public void emptyStoreCountsZeroAndFindsNothing() {
        CaseStore s = store(4);
        assertThat(s.count(all())).isZero();
        assertThat(s.search(bm25Query("server", all(), 5))).isEmpty();
    }

    @Test
    public void upsertThenCountWithFilters() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        assertThat(s.count(all())).isEqualTo(5);
        assertThat(s.count(matchKeyword("type", "method"))).isEqualTo(3);
        assertThat(s.count(matchKeyword("lang", "java"))).isEqualTo(3);
        // list field matches when any element does
        assertThat(s.count(matchKeyword("tags", "http"))).isEqualTo(3);
        assertThat(s.count(matchAny("tags", "io", "retry"))).isEqualTo(2);
        assertThat(s.count(between("line", 20.0, 40.0))).isEqualTo(3);
        assertThat(s.count(PayloadFilter.mustNot(matchKeyword("lang", "java")))).isEqualTo(2);
        assertThat(s.count(PayloadFilter.isEmpty("tags"))).isEqualTo(1);
    }

    @Test
    public void upsertWithSameIdReplacesTextMetadataAndVectors() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        s.upsert(List.of(new IndexedCase(chunk("a", "completely different words about bananas", Map.of("type", "fruit")),
                new float[] {0, 0, 0.6f, 0.8f}, sparse(9, 1.0))));
        assertThat(s.count(all())).isEqualTo(5);
        assertThat(s.count(matchKeyword("type", "type"))).isZero();
        assertThat(s.count(matchKeyword("type", "fruit"))).isEqualTo(1);
        List<SearchHit> hits = s.search(bm25Query("bananas", all(), 5));
        assertThat(ids(hits)).containsExactly("a");
        assertThat(hits.get(0).text()).isEqualTo("completely different words about bananas");
        assertThat(hits.get(0).metadata()).isEqualTo(Map.of("type", "fruit"));
        assertThat(hits.get(0).listMetadata()).isEmpty();
        assertThat(s.search(bm25Query("HttpServerConfig", all(), 5))).extracting(SearchHit::id).doesNotContain("a");
        // the old vectors are gone: 'a' no longer matches sparse index 1, and its cosine to e1 is 0
        assertThat(ids(s.search(sparseQuery(sparse(1, 1.0), all(), 5)))).containsExactly("b");
        assertThat(ids(s.search(sparseQuery(sparse(9, 1.0), all(), 5)))).containsExactly("a");
        SearchHit a = s.search(denseQuery(new float[] {0, 0, 0.6f, 0.8f}, all(), 1)).get(0);
        assertThat(a.id()).isEqualTo("a");
        assertThat(a.legs().get(Leg.DENSE).score()).isCloseTo(1.0, within(SCORE_TOLERANCE));
    }

    @Test
    public void deleteByIdsIgnoresUnknownIds() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        s.delete(List.of("a", "c", "no-such-id"));
        assertThat(s.count(all())).isEqualTo(3);
        assertThat(ids(s.search(denseQuery(new float[] {1, 0, 0, 0}, all(), 10)))).containsExactlyInAnyOrder("b", "d", "e");
        assertThat(ids(s.search(bm25Query("config", all(), 10)))).isEmpty();
        assertThat(ids(s.search(sparseQuery(sparse(2, 1.0), all(), 10)))).isEmpty();
    }

    @Test
    public void deleteWhereRemovesExactlyTheMatchingChunks() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        s.deleteWhere(matchKeyword("tags", "http"));
        assertThat(s.count(all())).isEqualTo(2);
        assertThat(ids(s.search(denseQuery(new float[] {1, 1, 1, 1}, all(), 10)))).containsExactlyInAnyOrder("c", "d");
    }

    @Test
    public void dimensionMismatchIsRejectedAtUpsertBeforeAnythingIsWritten() {
        CaseStore s = store(4);
        List<IndexedCase> batch = List.of(
                new IndexedCase(chunk("ok", "fine", Map.of()), new float[] {1, 0, 0, 0}, null),
                new IndexedCase(chunk("bad", "wrong length", Map.of()), new float[] {1, 0, 0}, null));
        assertThatThrownBy(() -> s.upsert(batch))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad").hasMessageContaining("3").hasMessageContaining("4");
        assertThat(s.count(all())).isZero();
        s.upsert(List.of(batch.get(0)));
        assertThatThrownBy(() -> s.upsert(List.of(new IndexedCase(chunk("x", "x", Map.of()), new float[5], null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x");
        assertThat(s.count(all())).isEqualTo(1);
    }

    @Test
    public void queryVectorOfTheWrongDimensionIsRejected() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        assertThatThrownBy(() -> s.search(denseQuery(new float[] {1, 0, 0}, all(), 3)))
                .isInstanceOfAny(IllegalArgumentException.class, NeuralTextException.class);
    }

    // ------------------------------------------------------------------ legs

    @Test
    public void denseRankingMatchesBruteForceCosine() {
        int dim = 16;
        CaseStore s = store(dim);
        Random random = new Random(7);
        Map<String, float[]> vectors = new HashMap<>();
        List<IndexedCase> cases = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            float[] v = new float[dim];
            for (int j = 0; j < dim; j++) {
                v[j] = (float) random.nextGaussian();
            }
            String id = String.format("doc-%03d", i);
            vectors.put(id, v);
            cases.add(new IndexedCase(chunk(id, "text " + i, Map.of("parity", i % 2 == 0 ? "even" : "odd")), v, null));
        }
        s.upsert(cases);
        for (int trial = 0; trial < 3; trial++) {
            float[] q = new float[dim];
            for (int j = 0; j < dim; j++) {
                q[j] = (float) random.nextGaussian();
            }
            PayloadFilter filter = trial == 2 ? matchKeyword("parity", "odd") : all();
            List<String> expected = vectors.entrySet().stream()
                    .filter(e -> filter.test(cases.get(Integer.parseInt(e.getKey().substring(4))).chunk().payload()))
                    .sorted(Comparator.comparingDouble((Map.Entry<String, float[]> e) -> -cosine(q, e.getValue())))
                    .map(Map.Entry::getKey).limit(10).collect(Collectors.toList());
            List<SearchHit> hits = s.search(denseQuery(q, filter, 10));
            assertThat(ids(hits)).containsExactlyElementsOf(expected);
            for (int r = 0; r < hits.size(); r++) {
                LegScore leg = hits.get(r).legs().get(Leg.DENSE);
                assertThat(leg.rank()).isEqualTo(r + 1);
                assertThat(leg.score()).isCloseTo(cosine(q, vectors.get(hits.get(r).id())), within(SCORE_TOLERANCE));
            }
        }
    }

    @Test
    public void sparseRankingMatchesBruteForceDotProduct() {
        CaseStore s = store(4);
        Random random = new Random(11);
        Map<String, SparseVector> vectors = new HashMap<>();
        List<IndexedCase> cases = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            Map<Integer, Float> m = new HashMap<>();
            int nnz = 1 + random.nextInt(8);
            for (int j = 0; j < nnz; j++) {
                m.put(random.nextInt(60), 0.05f + random.nextFloat() * 3);
            }
            SparseVector v = SparseVector.of(m);
            String id = String.format("doc-%03d", i);
            vectors.put(id, v);
            cases.add(new IndexedCase(chunk(id, "text " + i, Map.of()), null, v));
        }
        s.upsert(cases);
        SparseVector q = sparse(3, 1.5, 17, 0.7, 42, 2.0, 59, 0.3);
        List<String> expected = vectors.entrySet().stream()
                .filter(e -> shares(q, e.getValue()))
                .sorted(Comparator.comparingDouble((Map.Entry<String, SparseVector> e) -> -q.dot(e.getValue())))
                .map(Map.Entry::getKey).limit(12).collect(Collectors.toList());
        assertThat(expected).hasSize(12);
        List<SearchHit> hits = s.search(sparseQuery(q, all(), 12));
        assertThat(ids(hits)).containsExactlyElementsOf(expected);
        for (int r = 0; r < hits.size(); r++) {
            assertThat(hits.get(r).legs().get(Leg.SPARSE).score())
                    .isCloseTo(q.dot(vectors.get(hits.get(r).id())), within(SCORE_TOLERANCE));
            assertThat(hits.get(r).legs().get(Leg.SPARSE).rank()).isEqualTo(r + 1);
        }
    }

    private static boolean shares(SparseVector a, SparseVector b) {
        for (int i = 0; i < a.size(); i++) {
            for (int j = 0; j < b.size(); j++) {
                if (a.indexAt(i) == b.indexAt(j)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    public void bm25PutsTheChunkContainingTheExactIdentifierFirst() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        List<SearchHit> hits = s.search(bm25Query("HttpServerConfig", all(), 5));
        assertThat(hits).isNotEmpty();
        assertThat(hits.get(0).id()).isEqualTo("a");
        assertThat(hits.get(0).legs().get(Leg.BM25).rank()).isEqualTo(1);
        assertThat(hits.get(0).legs().get(Leg.BM25).score()).isPositive();
        assertThat(ids(s.search(bm25Query("calendar", all(), 5)))).containsExactly("d");
    }

    /** 15 "near" and 15 "far" chunks; the near ones win every leg, so only an in-leg filter can return 5 far ones. */
    private static List<IndexedCase> nearAndFar() {
        List<IndexedCase> cases = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            boolean near = i < 15;
            String id = String.format("%s-%02d", near ? "near" : "far", i);
            String text = near ? "alpha alpha alpha alpha" : "alpha beta gamma delta epsilon zeta eta theta iota kappa";
            float[] v = near ? new float[] {1, 0.01f * i, 0, 0} : new float[] {0.2f, 1, 0.01f * i, 0};
            SparseVector sv = near ? sparse(1, 5.0, 2, 0.1 * (i + 1)) : sparse(1, 1.0, 3, 0.1 * (i + 1));
            cases.add(new IndexedCase(chunk(id, text, Map.of("kind", near ? "near" : "far")), v, sv));
        }
        return cases;
    }

    @Test
    public void filterIsEvaluatedInsideEveryLegSoTheLimitIsStillFilled() {
        CaseStore s = store(4);
        s.upsert(nearAndFar());
        PayloadFilter far = matchKeyword("kind", "far");
        List<HybridQuery> queries = List.of(
                denseQuery(new float[] {1, 0, 0, 0}, far, 5),
                sparseQuery(sparse(1, 1.0), far, 5),
                bm25Query("alpha", far, 5),
                query("alpha", new float[] {1, 0, 0, 0}, sparse(1, 1.0), EnumSet.allOf(Leg.class), far, 5, 5));
        for (HybridQuery q : queries) {
            List<SearchHit> hits = s.search(q);
            assertThat(hits).as("legs %s", q.legs()).hasSize(5);
            assertThat(hits).allSatisfy(h -> assertThat(h.metadata().get("kind")).isEqualTo("far"));
        }
        // and without the filter the near ones win, so the filter really mattered
        assertThat(s.search(denseQuery(new float[] {1, 0, 0, 0}, all(), 5)))
                .allSatisfy(h -> assertThat(h.id()).startsWith("near"));
    }

    @Test
    public void limitIsRespected() {
        CaseStore s = store(4);
        s.upsert(nearAndFar());
        HybridQuery q = query("alpha", new float[] {1, 0, 0, 0}, sparse(1, 1.0), EnumSet.allOf(Leg.class), all(), 20, 7);
        assertThat(s.search(q)).hasSize(7);
        assertThat(s.search(denseQuery(new float[] {1, 0, 0, 0}, all(), 30))).hasSize(30);
        assertThat(s.search(bm25Query("kappa", all(), 30))).hasSize(15);
    }

    // ------------------------------------------------------------------ fusion and explanations

    @Test
    public void fusedScoresAreInUnitRangeDescendingAndOneForTheChunkFirstInEveryLeg() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        // 'a' is first in all three legs: cosine 1 to e1, sparse dot 2*1 on index 1 (b has 1), and it holds HttpServerConfig
        for (FusionMethod fusion : List.of(FusionMethod.defaultMethod(), FusionMethod.alpha(0.5))) {
            HybridQuery q = new HybridQuery("HttpServerConfig", new float[] {1, 0, 0, 0}, sparse(1, 1.0),
                    EnumSet.allOf(Leg.class), all(), 5, 5, fusion, true);
            List<SearchHit> hits = s.search(q);
            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).id()).isEqualTo("a");
            assertThat(hits.get(0).legs()).containsOnlyKeys(Leg.BM25, Leg.DENSE, Leg.SPARSE);
            assertThat(hits.get(0).fusedScore()).as("%s", fusion).isCloseTo(1.0, within(1e-9));
            for (int i = 0; i < hits.size(); i++) {
                SearchHit h = hits.get(i);
                assertThat(h.fusedScore()).isBetween(0.0, 1.0);
                assertThat(h.score()).isEqualTo(h.fusedScore());
                if (i > 0) {
                    assertThat(h.fusedScore()).isLessThanOrEqualTo(hits.get(i - 1).fusedScore());
                }
            }
        }
    }

    @Test
    public void explainGivesEveryHitTheRankAndRawScoreOfEveryLegThatFoundIt() {
        CaseStore s = store(4);
        List<IndexedCase> corpus = smallCorpus();
        s.upsert(corpus);
        float[] qv = {0.6f, 0.8f, 0, 0};
        SparseVector qs = sparse(2, 1.0);
        HybridQuery q = query("config", qv, qs, EnumSet.allOf(Leg.class), all(), 5, 5);
        List<SearchHit> hits = s.search(q);
        // every chunk has a dense vector, so the dense leg returns all five and every hit explains it
        assertThat(hits).hasSize(5);
        List<String> denseOrder = corpus.stream()
                .sorted(Comparator.comparingDouble((IndexedCase c) -> -cosine(qv, c.dense())).thenComparing(c -> c.chunk().id()))
                .map(c -> c.chunk().id()).collect(Collectors.toList());
        for (SearchHit h : hits) {
            LegScore dense = h.legs().get(Leg.DENSE);
            assertThat(dense).as("dense leg of %s", h.id()).isNotNull();
            IndexedCase c = corpus.stream().filter(x -> x.chunk().id().equals(h.id())).findFirst().orElseThrow();
            assertThat(dense.score()).isCloseTo(cosine(qv, c.dense()), within(SCORE_TOLERANCE));
            // ties (cosine 0 for d and e) may be ordered either way, so compare ranks only among distinct scores
            if (!h.id().equals("d") && !h.id().equals("e")) {
                assertThat(dense.rank()).isEqualTo(denseOrder.indexOf(h.id()) + 1);
            }
            // sparse index 2 is held by a (1.0) and c (1.0); "config" is in a (HttpServerConfig) and c
            boolean hasIndex2 = h.id().equals("a") || h.id().equals("c");
            assertThat(h.legs().containsKey(Leg.SPARSE)).as("sparse leg of %s", h.id()).isEqualTo(hasIndex2);
            assertThat(h.legs().containsKey(Leg.BM25)).as("bm25 leg of %s", h.id()).isEqualTo(hasIndex2);
            if (hasIndex2) {
                assertThat(h.legs().get(Leg.SPARSE).score()).isCloseTo(1.0, within(SCORE_TOLERANCE));
                assertThat(h.legs().get(Leg.SPARSE).rank()).isBetween(1, 2);
                assertThat(h.legs().get(Leg.BM25).rank()).isBetween(1, 2);
            }
        }
    }

    @Test
    public void hitsCarryTheStoredTextAndMetadata() {
        CaseStore s = store(4);
        s.upsert(smallCorpus());
        SearchHit e = s.search(denseQuery(new float[] {0, 0, 0, 1}, all(), 1)).get(0);
        assertThat(e.id()).isEqualTo("e");
        assertThat(e.text()).isEqualTo("markdown notes about retry policies");
        assertThat(e.metadata()).isEqualTo(Map.of("type", "section", "line", "50"));
        assertThat(e.listMetadata()).isEqualTo(Map.of("tags", List.of("retry", "http")));
    }
}
