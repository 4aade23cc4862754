package dev.neuraltext.qdrant;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.store.IndexedCase;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Not a test: a measurement of the requests and protobuf bytes the store exchanges per indexed chunk and per query,
 * recorded by the in-process server on the real commons-lang chunks. Dense vectors are random 384-dimensional
 * (all-MiniLM-L6-v2's size), sparse document vectors random with 120 non-zeros and query vectors with 20 (SPLADE-like
 * sizes), because only their sizes matter here. Run explicitly:
 * {@code mvn -o -pl neural-text-qdrant -am test -Dtest=QdrantTrafficMeasurement -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class QdrantTrafficMeasurement {

    private static final int QUERIES = 100;

    @Test
    void measure() throws Exception {
        assumeTrue(CommonsLang.dir() != null, "commons-lang benchmark not found");
        EvalDataset data = CommonsLang.load();
        Random random = new Random(1);
        List<IndexedCase> withVectors = new ArrayList<>();
        List<IndexedCase> bm25Only = new ArrayList<>();
        for (EvalDocument d : data.documents()) {
            withVectors.add(new IndexedCase(d.toChunkInput(), dense(random), sparse(random, 120)));
            bm25Only.add(IndexedCase.of(d.toChunkInput()));
        }
        List<EvalQuery> queries = data.queries().subList(0, QUERIES);
        System.out.printf(Locale.ROOT, "commons-lang: %d chunks, %d queries measured%n", withVectors.size(),
                queries.size());
        for (Bm25Mode mode : Bm25Mode.values()) {
            for (boolean vectors : new boolean[] {true, false}) {
                try (FakeQdrant server = new FakeQdrant()) {
                    var client = server.client();
                    QdrantCaseStore store = QdrantCaseStore.builder().client(client).collection("m")
                            .denseDimension(vectors ? 384 : 0).bm25Mode(mode).build();
                    int setup = server.calls.size();
                    server.calls.clear();
                    List<IndexedCase> cases = vectors ? withVectors : bm25Only;
                    store.upsert(cases);
                    long bytes = 0;
                    for (FakeQdrant.Call c : server.calls) {
                        bytes += c.requestBytes();
                    }
                    System.out.printf(Locale.ROOT,
                            "%-11s %-14s setup %d calls; upsert %d calls, %.4f calls/chunk, %.0f request bytes/chunk%n",
                            mode, vectors ? "dense+sparse" : "bm25 only", setup, server.calls.size(),
                            (double) server.calls.size() / cases.size(), (double) bytes / cases.size());
                    Set<Leg> legs = vectors ? EnumSet.allOf(Leg.class) : EnumSet.of(Leg.BM25);
                    Map<String, FusionMethod> fusions = Map.of("rrf", FusionMethod.rrf(60),
                            "rrf+explain", FusionMethod.rrf(60), "weighted", FusionMethod.alpha(0.5));
                    for (String name : List.of("rrf", "rrf+explain", "weighted")) {
                        server.calls.clear();
                        for (EvalQuery q : queries) {
                            store.search(new HybridQuery(q.text(), vectors ? dense(random) : null,
                                    vectors ? sparse(random, 20) : null, legs, PayloadFilter.all(), 100, 10,
                                    fusions.get(name), name.endsWith("explain")));
                        }
                        long req = 0;
                        long resp = 0;
                        Map<String, Integer> methods = new HashMap<>();
                        for (FakeQdrant.Call c : server.calls) {
                            req += c.requestBytes();
                            resp += c.responseBytes();
                            methods.merge(c.method(), 1, Integer::sum);
                        }
                        System.out.printf(Locale.ROOT,
                                "%-11s %-14s query %-12s %.2f calls/query %s, %.0f request bytes, %.0f response bytes%n",
                                mode, vectors ? "dense+sparse" : "bm25 only", name,
                                (double) server.calls.size() / queries.size(), methods,
                                (double) req / queries.size(), (double) resp / queries.size());
                    }
                    store.close();
                    client.close();
                }
            }
        }
    }

    private static float[] dense(Random r) {
        float[] v = new float[384];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return v;
    }

    private static SparseVector sparse(Random r, int nnz) {
        Map<Integer, Float> m = new HashMap<>();
        while (m.size() < nnz) {
            m.put(r.nextInt(30522), 0.05f + 2 * r.nextFloat());
        }
        return SparseVector.of(m);
    }
}
