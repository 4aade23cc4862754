package dev.neuraltext.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Indexes the commons-lang benchmark into the embedded store and into Qdrant (both BM25 modes) and compares the BM25
 * leg's MRR@10 and recall@100 over its 900 queries. BM25 only, so no model is needed. Skipped without Docker or
 * without the dataset; prints the table it measured.
 */
@Testcontainers(disabledWithoutDocker = true)
class QdrantCommonsLangIT {

    @Test
    void bothBm25ModesGiveComparableMetricsToTheEmbeddedStore() {
        assumeTrue(CommonsLang.dir() != null, "commons-lang benchmark not found");
        EvalDataset data = CommonsLang.load();
        List<IndexedCase> cases = new ArrayList<>();
        for (EvalDocument d : data.documents()) {
            cases.add(IndexedCase.of(d.toChunkInput()));
        }
        Map<String, Double> averages = QdrantCaseStore.bm25FieldAverageLengths(
                cases.stream().map(IndexedCase::chunk).toList());
        GenericContainer<?> qdrant = QdrantTestServer.get();
        Map<String, CaseStore> stores = new LinkedHashMap<>();
        stores.put("embedded", InMemoryCaseStore.create());
        for (Bm25Mode mode : Bm25Mode.values()) {
            stores.put("qdrant " + mode.name().toLowerCase(Locale.ROOT), QdrantCaseStore.builder()
                    .host(qdrant.getHost(), qdrant.getMappedPort(6334))
                    .collection("commons-lang-" + mode.name().toLowerCase(Locale.ROOT))
                    .recreateIncompatibleCollection(true)
                    .bm25Mode(mode)
                    .bm25FieldAverageLengths(averages)
                    .upsertBatchSize(256)
                    .build());
        }
        Map<String, double[]> metrics = new LinkedHashMap<>();
        for (Map.Entry<String, CaseStore> e : stores.entrySet()) {
            CaseStore store = e.getValue();
            store.deleteWhere(PayloadFilter.all());
            store.upsert(cases);
            assertThat(store.count(PayloadFilter.all())).isEqualTo(cases.size());
            double mrr = 0;
            double recall = 0;
            for (EvalQuery q : data.queries()) {
                List<SearchHit> hits = store.search(new HybridQuery(q.text(), null, null, EnumSet.of(Leg.BM25),
                        PayloadFilter.all(), 100, 100, FusionMethod.defaultMethod(), false));
                List<String> ranked = hits.stream().map(SearchHit::id).toList();
                mrr += Metrics.reciprocalRank(ranked, data.judgments(q), 10);
                recall += Metrics.recall(ranked, data.judgments(q), 100);
            }
            int n = data.queries().size();
            metrics.put(e.getKey(), new double[] {mrr / n, recall / n});
            store.close();
        }
        System.out.printf(Locale.ROOT, "commons-lang BM25 leg, %d documents, %d queries, field averages %s%n",
                cases.size(), data.queries().size(), averages);
        metrics.forEach((name, m) -> System.out.printf(Locale.ROOT, "| %-20s | MRR@10 %.3f | recall@100 %.3f |%n",
                name, m[0], m[1]));
        double embedded = metrics.get("embedded")[0];
        assertThat(metrics.get("qdrant client_side")[0]).isGreaterThan(0.8 * embedded);
        assertThat(metrics.get("qdrant server_side")[0]).isGreaterThan(0.1);
    }
}
