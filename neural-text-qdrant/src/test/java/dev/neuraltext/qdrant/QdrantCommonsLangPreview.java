package dev.neuraltext.qdrant;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.eval.Metrics;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexedCase;
import io.qdrant.client.QdrantClient;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Not a test: a preview, without Docker, of the client-side BM25 mode's quality on commons-lang. The in-process
 * {@link FakeQdrant} does what Qdrant does with the {@code bm25} vector (dot product with the IDF modifier's
 * {@code ln(1 + (N - n + 0.5) / (n + 0.5))}), so the numbers are those Qdrant would give up to 32-bit floats; the
 * server-side mode needs Qdrant's own tokenizer and is measured by {@link QdrantCommonsLangIT} only. Run explicitly:
 * {@code mvn -o -pl neural-text-qdrant -am test -Dtest=QdrantCommonsLangPreview -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class QdrantCommonsLangPreview {

    @Test
    void preview() throws Exception {
        assumeTrue(CommonsLang.dir() != null, "commons-lang benchmark not found");
        EvalDataset data = CommonsLang.load();
        List<IndexedCase> cases = new ArrayList<>();
        for (EvalDocument d : data.documents()) {
            cases.add(IndexedCase.of(d.toChunkInput()));
        }
        try (FakeQdrant server = new FakeQdrant(); QdrantClient client = server.client()) {
            Map<String, CaseStore> stores = new LinkedHashMap<>();
            stores.put("embedded (InMemoryCaseStore)", InMemoryCaseStore.create());
            List<dev.neuraltext.chunk.ChunkInput> chunks = cases.stream().map(IndexedCase::chunk).toList();
            Map<String, Double> measured = QdrantCaseStore.bm25FieldAverageLengths(chunks);
            System.out.println("measured field average lengths: " + measured);
            stores.put("qdrant client_side, defaults", QdrantCaseStore.builder().client(client).collection("a")
                    .build());
            stores.put("qdrant client_side, measured", QdrantCaseStore.builder().client(client).collection("b")
                    .bm25FieldAverageLengths(measured).build());
            System.out.printf(Locale.ROOT, "commons-lang BM25 leg: %d documents, %d queries%n", cases.size(),
                    data.queries().size());
            for (Map.Entry<String, CaseStore> e : stores.entrySet()) {
                CaseStore store = e.getValue();
                if (store instanceof QdrantCaseStore) {
                    server.points.clear(); // one fake collection at a time
                }
                store.upsert(cases);
                double[] sums = new double[4];
                Map<String, double[]> byType = new LinkedHashMap<>();
                for (EvalQuery q : data.queries()) {
                    List<SearchHit> hits = store.search(new HybridQuery(q.text(), null, null, EnumSet.of(Leg.BM25),
                            PayloadFilter.all(), 100, 100, FusionMethod.defaultMethod(), false));
                    List<String> ranked = hits.stream().map(SearchHit::id).toList();
                    double rr = Metrics.reciprocalRank(ranked, data.judgments(q), 10);
                    sums[0] += rr;
                    sums[1] += Metrics.ndcg(ranked, data.judgments(q), 10);
                    sums[2] += Metrics.recall(ranked, data.judgments(q), 100);
                    double[] t = byType.computeIfAbsent(q.metadata().getOrDefault("type", "?"), k -> new double[2]);
                    t[0] += rr;
                    t[1]++;
                }
                int n = data.queries().size();
                System.out.printf(Locale.ROOT, "| %-30s | MRR@10 %.3f | nl %.3f | kw %.3f | nDCG@10 %.3f |"
                        + " recall@100 %.3f |%n", e.getKey(), sums[0] / n,
                        byType.get("nl")[0] / byType.get("nl")[1], byType.get("kw")[0] / byType.get("kw")[1],
                        sums[1] / n, sums[2] / n);
                store.close();
            }
        }
    }
}
