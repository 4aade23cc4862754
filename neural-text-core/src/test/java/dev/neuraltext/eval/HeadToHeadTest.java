package dev.neuraltext.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadToHeadTest {

    @Test
    void fiveEqualWinsGiveTheExactSignFlipPValue() {
        // 5 differences of +0.2: only the all-plus and all-minus assignments reach |sum| = 1.0, so p = 2 / 2^5
        HeadToHead.Result r = HeadToHead.on("ndcg@10").compare(new double[] {0.2, 0.2, 0.2, 0.2, 0.2});
        assertThat(r.exact()).isTrue();
        assertThat(r.pValue()).isEqualTo(2.0 / 32);
        assertThat(r.wins()).isEqualTo(5);
        assertThat(r.losses()).isZero();
        assertThat(r.meanDelta()).isCloseTo(0.2, within(1e-12));
        // every bootstrap resample of identical values has mean 0.2
        assertThat(r.ciLow()).isCloseTo(0.2, within(1e-12));
        assertThat(r.ciHigh()).isCloseTo(0.2, within(1e-12));
    }

    @Test
    void mixedDifferencesGiveTheHandEnumeratedPValue() {
        // {0.5, 0.3, -0.1}, observed sum 0.7; sign sums: +-0.9, +-0.7, +-0.3, +-0.1 -> 4 of 8 reach 0.7
        HeadToHead.Result r = HeadToHead.on("m").compare(new double[] {0.5, 0.3, -0.1, 0.0});
        assertThat(r.pValue()).isEqualTo(0.5);
        assertThat(r.wins()).isEqualTo(2);
        assertThat(r.losses()).isEqualTo(1);
        assertThat(r.draws()).isEqualTo(1);
        assertThat(r.meanDelta()).isCloseTo(0.7 / 4, within(1e-12));
        assertThat(r.ciLow()).isLessThanOrEqualTo(r.meanDelta());
        assertThat(r.ciHigh()).isGreaterThanOrEqualTo(r.meanDelta());
    }

    @Test
    void allDrawsMeanNoEvidence() {
        HeadToHead.Result r = HeadToHead.on("m").compare(new double[] {0, 0, 0});
        assertThat(r.pValue()).isEqualTo(1.0);
        assertThat(r.draws()).isEqualTo(3);
        assertThat(r.ciLow()).isZero();
        assertThat(r.ciHigh()).isZero();
    }

    @Test
    void manyConsistentWinsAreSignificantWithMonteCarloAndReproducible() {
        double[] d = new double[60];
        for (int i = 0; i < d.length; i++) {
            d[i] = i % 4 == 0 ? -0.1 : 0.3; // 45 wins of 0.3, 15 losses of 0.1
        }
        HeadToHead h = HeadToHead.on("m").resamples(2000).seed(7);
        HeadToHead.Result r = h.compare(d);
        assertThat(r.exact()).isFalse();
        // observed sum 12; a random sign sum has sd sqrt(45*0.09 + 15*0.01) = 2.05, so 12 is ~5.9 sd out:
        // no resample reaches it and the estimate is 1 / 2001
        assertThat(r.pValue()).isEqualTo(1.0 / 2001);
        assertThat(h.compare(d)).isEqualTo(r);
        assertThat(r.ciLow()).isGreaterThan(0.1);
        assertThat(r.ciHigh()).isLessThan(0.3);
    }

    @Test
    void comparesTwoRunsPairedByQuery() {
        // three queries, each with one relevant doc "d<i>"; run A finds all at rank 1, run B finds q1 at rank 1,
        // q2 at rank 2, nothing for q3
        List<EvalDocument> docs = new ArrayList<>();
        List<EvalQuery> queries = new ArrayList<>();
        Map<String, Map<String, Integer>> judgments = new java.util.LinkedHashMap<>();
        for (int i = 1; i <= 3; i++) {
            docs.add(new EvalDocument("d" + i, "", "text " + i, Map.of()));
            queries.add(EvalQuery.of("q" + i, "query " + i));
            judgments.put("q" + i, Map.of("d" + i, 1));
        }
        docs.add(new EvalDocument("z", "", "noise", Map.of()));
        EvalDataset data = EvalDataset.of("tiny", docs, queries, Qrels.of(judgments));
        EvalRunner runner = EvalRunner.defaults();
        EvalRun a = runner.run("a", data, q -> List.of("d" + q.id().substring(1)));
        EvalRun b = runner.run("b", data, q -> switch (q.id()) {
            case "q1" -> List.of("d1");
            case "q2" -> List.of("z", "d2");
            default -> List.of("z");
        });
        HeadToHead.Result r = HeadToHead.on("ndcg@10").compare(a, b);
        // deltas: 0, 1 - 1/log2(3) = 0.36907, 1 -> two wins, one draw; sign flips of {0.369, 1}: 2 of 4 reach 1.369
        assertThat(r.wins()).isEqualTo(2);
        assertThat(r.draws()).isEqualTo(1);
        assertThat(r.losses()).isZero();
        assertThat(r.pValue()).isEqualTo(0.5);
        assertThat(r.meanA()).isEqualTo(1.0);
        assertThat(r.meanB()).isCloseTo((1 + 1 / (Math.log(3) / Math.log(2))) / 3, within(1e-12));
        assertThat(r.summary()).startsWith("a vs b on ndcg@10: +0.456");
    }
}
