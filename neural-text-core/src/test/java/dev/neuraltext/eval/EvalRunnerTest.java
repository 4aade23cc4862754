package dev.neuraltext.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.chunk.ChunkInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvalRunnerTest {

    private static EvalDataset dataset() {
        List<EvalDocument> docs = List.of(
                new EvalDocument("d1", "Foo", "class Foo {}", Map.of("kind", "type")),
                new EvalDocument("d1-copy", "Foo", "class Foo {}", Map.of("kind", "type")),
                new EvalDocument("d2", "Foo.bar", "void bar() {}", Map.of("kind", "method")),
                new EvalDocument("d3", "Baz", "class Baz {}", Map.of()));
        List<EvalQuery> queries = List.of(
                new EvalQuery("q1", "Foo", Map.of("type", "kw", "shape", "type-name")),
                new EvalQuery("q2", "what does bar do", Map.of("type", "nl")),
                new EvalQuery("q3", "unjudged question", Map.of("type", "nl")),
                new EvalQuery("q4", "only irrelevant judged", Map.of("type", "nl")));
        Map<String, Map<String, Integer>> j = new java.util.LinkedHashMap<>();
        j.put("q1", Map.of("d1", 2, "d1-copy", 1, "d2", 1));
        j.put("q2", Map.of("d2", 1));
        j.put("q4", Map.of("d3", 0));
        return EvalDataset.of("tiny", docs, queries, Qrels.of(j), Map.of("d1-copy", "d1"), List.of());
    }

    @Test
    void queriesWithoutRelevantJudgmentsAreExcludedAndReported() {
        EvalDataset data = dataset();
        assertThat(data.queries()).extracting(EvalQuery::id).containsExactly("q1", "q2");
        assertThat(data.excludedQueries()).extracting(EvalQuery::id).containsExactly("q3", "q4");
        assertThat(data.warnings()).containsExactly("2 queries without a relevant judgment excluded (q3, q4)");
        assertThat(data.summary()).isEqualTo("tiny: 4 documents, 2 queries (2 excluded without judgments), "
                + "4 judgments, 1 aliases");
    }

    @Test
    void aliasesMergeJudgmentsKeepingTheHigherGradeAndMapRetrievedIds() {
        EvalDataset data = dataset();
        assertThat(data.qrels().judgments("q1")).containsExactlyInAnyOrderEntriesOf(Map.of("d1", 2, "d2", 1));
        // q1 retrieves the copy first, then the original, then d3 (unjudged):
        // scored as [d1, d3]: rr 1, ndcg = 2 / (2 + 1/log2 3), noise@8 = 1/2 (d3), returned 3
        QueryResult r = EvalRunner.defaults().score(data, data.queries().get(0), List.of("d1-copy", "d1", "d3"), 0);
        assertThat(r.ranked()).containsExactly("d1", "d3");
        assertThat(r.returned()).isEqualTo(3);
        assertThat(r.metric("mrr@10")).isEqualTo(1.0);
        assertThat(r.metric("ndcg@10")).isCloseTo(2 / (2 + 1 / (Math.log(3) / Math.log(2))), within(1e-12));
        assertThat(r.metric("noise@8")).isEqualTo(0.5);
        assertThat(r.metric("unjudged@8")).isEqualTo(0.5);
        assertThat(r.metric("highly_relevant@8")).isEqualTo(0.5);
    }

    @Test
    void runAggregatesOverallAndPerSlice() {
        EvalDataset data = dataset();
        List<String> seen = new ArrayList<>();
        EvalRun run = EvalRunner.builder().warmup(1).build().run("fixed", data, q -> {
            seen.add(q.id());
            return q.id().equals("q1") ? List.of("d3", "d1") : List.of("d3");
        }, (done, total) -> seen.add(done + "/" + total));
        // warm-up runs q1 once unscored, then q1 and q2 with progress
        assertThat(seen).containsExactly("q1", "q1", "1/2", "q2", "2/2");
        // q1: rr 1/2, q2: rr 0 -> mean 0.25; q1 success@1 0
        assertThat(run.overall().queries()).isEqualTo(2);
        assertThat(run.overall().mean("mrr@10")).isEqualTo(0.25);
        assertThat(run.overall().mean("success@5")).isEqualTo(0.5);
        Map<String, Summary> byType = run.bySlice("type");
        assertThat(byType.keySet()).containsExactly("kw", "nl");
        assertThat(byType.get("kw").mean("mrr@10")).isEqualTo(0.5);
        assertThat(byType.get("nl").mean("mrr@10")).isZero();
        Map<String, Summary> byShape = run.bySlice("shape");
        assertThat(byShape.keySet()).containsExactly(EvalRun.NO_VALUE, "type-name");
        assertThat(run.meanReturned()).isEqualTo(1.5);
        assertThat(run.latencyMillis(50)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void percentileIsNearestRank() {
        long[] v = {5, 1, 4, 2, 3, 10, 9, 8, 7, 6};
        assertThat(EvalRun.percentile(v, 50)).isEqualTo(5);
        assertThat(EvalRun.percentile(v, 95)).isEqualTo(10);
        assertThat(EvalRun.percentile(v, 10)).isEqualTo(1);
        assertThat(EvalRun.percentile(new long[0], 99)).isZero();
    }

    @Test
    void nullRankingFailsNamingTheQuery() {
        assertThatThrownBy(() -> EvalRunner.defaults().run("broken", dataset(), q -> null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'broken'").hasMessageContaining("q1");
    }

    @Test
    void datasetRejectsUnknownIdsAndAliasChains() {
        List<EvalDocument> docs = List.of(new EvalDocument("a", "", "x", Map.of()),
                new EvalDocument("b", "", "y", Map.of()), new EvalDocument("c", "", "z", Map.of()));
        List<EvalQuery> qs = List.of(EvalQuery.of("q", "x"));
        assertThatThrownBy(() -> EvalDataset.of("t", docs, qs, Qrels.of(Map.of("q", Map.of("nope", 1)))))
                .hasMessageContaining("unknown document id 'nope'");
        assertThatThrownBy(() -> EvalDataset.of("t", docs, qs, Qrels.of(Map.of("q2", Map.of("a", 1)))))
                .hasMessageContaining("unknown query id 'q2'");
        assertThatThrownBy(() -> EvalDataset.of("t", docs, qs, Qrels.of(Map.of()), Map.of("a", "b", "b", "c"),
                List.of())).hasMessageContaining("is itself an alias");
    }

    @Test
    void documentsMapToChunksTheSameWayForEveryone() {
        ChunkInput c = new EvalDocument("id1", "Foo.bar", "void bar() {}", Map.of("kind", "method")).toChunkInput();
        assertThat(c.id()).isEqualTo("id1");
        assertThat(c.text()).isEqualTo("Foo.bar\nvoid bar() {}");
        assertThat(c.metadata()).containsExactlyEntriesOf(Map.of("kind", "method"));
        assertThat(c.fields()).containsExactlyInAnyOrderEntriesOf(Map.of("name", "Foo.bar", "body", "void bar() {}"));
    }
}
