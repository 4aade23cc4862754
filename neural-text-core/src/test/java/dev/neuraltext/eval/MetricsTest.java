package dev.neuraltext.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every expected value here is computed by hand (see the comments), never by the code under test. */
class MetricsTest {

    private static final double LOG2_3 = Math.log(3) / Math.log(2);
    private static final double EPS = 1e-12;

    // a: highly relevant, b: relevant, c: judged not relevant, x: unjudged
    private static final Map<String, Integer> GRADES = Map.of("a", 2, "b", 1, "c", 0);
    private static final List<String> RANKED = List.of("x", "b", "a", "c");

    @Test
    void reciprocalRankIsOneOverTheFirstRelevantRankWithinK() {
        assertThat(Metrics.reciprocalRank(RANKED, GRADES, 10)).isEqualTo(0.5); // b at rank 2
        assertThat(Metrics.reciprocalRank(RANKED, GRADES, 2)).isEqualTo(0.5);
        assertThat(Metrics.reciprocalRank(RANKED, GRADES, 1)).isEqualTo(0.0); // x is unjudged
        assertThat(Metrics.reciprocalRank(List.of("c", "x", "a"), GRADES, 10)).isEqualTo(1.0 / 3);
    }

    @Test
    void ndcgUsesLinearGainAndLog2Discount() {
        // DCG = 0/log2(2) + 1/log2(3) + 2/log2(4) + 0/log2(5) = 1/log2(3) + 1; ideal [2, 1] = 2 + 1/log2(3)
        double expected = (1 / LOG2_3 + 1) / (2 + 1 / LOG2_3); // 0.6199062332840657
        assertThat(Metrics.ndcg(RANKED, GRADES, 10)).isCloseTo(expected, within(EPS));
        assertThat(Metrics.ndcg(RANKED, GRADES, 10)).isCloseTo(0.6199062332840657, within(1e-12));
        // at k = 2: DCG = 1/log2(3); IDCG@2 = 2 + 1/log2(3)
        assertThat(Metrics.ndcg(RANKED, GRADES, 2)).isCloseTo((1 / LOG2_3) / (2 + 1 / LOG2_3), within(EPS));
        assertThat(Metrics.ndcg(List.of("a", "b"), GRADES, 10)).isCloseTo(1.0, within(EPS));
    }

    @Test
    void gradedAndBinaryJudgmentsDifferExactlyAsHandComputed() {
        List<String> ranked = List.of("b", "a");
        assertThat(Metrics.ndcg(ranked, Map.of("a", 1, "b", 1), 10)).isCloseTo(1.0, within(EPS));
        // graded: DCG = 1 + 2/log2(3) = 2.26186; IDCG = 2 + 1/log2(3) = 2.63093
        assertThat(Metrics.ndcg(ranked, Map.of("a", 2, "b", 1), 10)).isCloseTo(0.8597186998521972, within(1e-12));
        // MRR, success and recall see only relevant / not relevant
        assertThat(Metrics.reciprocalRank(ranked, Map.of("a", 2, "b", 1), 10)).isEqualTo(1.0);
        assertThat(Metrics.recall(ranked, Map.of("a", 2, "b", 1), 1)).isEqualTo(0.5);
    }

    @Test
    void tiedGradesMakeEitherOrderIdeal() {
        Map<String, Integer> tied = Map.of("p", 1, "q", 1);
        assertThat(Metrics.ndcg(List.of("p", "q"), tied, 10)).isCloseTo(1.0, within(EPS));
        assertThat(Metrics.ndcg(List.of("q", "p"), tied, 10)).isCloseTo(1.0, within(EPS));
        // one of two tied relevant docs at rank 1 only: 1 / (1 + 1/log2(3))
        assertThat(Metrics.ndcg(List.of("q"), tied, 10)).isCloseTo(1 / (1 + 1 / LOG2_3), within(EPS));
    }

    @Test
    void successAndRecallAtCuts() {
        assertThat(Metrics.success(RANKED, GRADES, 1)).isEqualTo(0.0);
        assertThat(Metrics.success(RANKED, GRADES, 2)).isEqualTo(1.0);
        assertThat(Metrics.success(RANKED, GRADES, 5)).isEqualTo(1.0);
        assertThat(Metrics.recall(RANKED, GRADES, 1)).isEqualTo(0.0);
        assertThat(Metrics.recall(RANKED, GRADES, 2)).isEqualTo(0.5); // b of {a, b}
        assertThat(Metrics.recall(RANKED, GRADES, 3)).isEqualTo(1.0);
    }

    @Test
    void rubricSeparatesRelevantHighlyRelevantNoiseAndUnjudged() {
        // top 3 = x (unjudged), b (1), a (2)
        assertThat(Metrics.relevantPrecision(RANKED, GRADES, 3)).isCloseTo(2.0 / 3, within(EPS));
        assertThat(Metrics.highlyRelevantPrecision(RANKED, GRADES, 3)).isCloseTo(1.0 / 3, within(EPS));
        assertThat(Metrics.noise(RANKED, GRADES, 3)).isCloseTo(1.0 / 3, within(EPS));
        assertThat(Metrics.unjudged(RANKED, GRADES, 3)).isCloseTo(1.0 / 3, within(EPS));
        // top 8 of a 4-long list = the 4 shown: x, b, a, c -> relevant 2/4, highly 1/4, noise 2/4 (x, c), unjudged 1/4
        assertThat(Metrics.relevantPrecision(RANKED, GRADES, 8)).isEqualTo(0.5);
        assertThat(Metrics.highlyRelevantPrecision(RANKED, GRADES, 8)).isEqualTo(0.25);
        assertThat(Metrics.noise(RANKED, GRADES, 8)).isEqualTo(0.5);
        assertThat(Metrics.unjudged(RANKED, GRADES, 8)).isEqualTo(0.25);
    }

    @Test
    void emptyResultsScoreZeroEverywhere() {
        List<String> none = List.of();
        assertThat(Metrics.reciprocalRank(none, GRADES, 10)).isZero();
        assertThat(Metrics.ndcg(none, GRADES, 10)).isZero();
        assertThat(Metrics.success(none, GRADES, 10)).isZero();
        assertThat(Metrics.recall(none, GRADES, 10)).isZero();
        assertThat(Metrics.relevantPrecision(none, GRADES, 8)).isZero();
        assertThat(Metrics.noise(none, GRADES, 8)).isZero();
        assertThat(Metrics.unjudged(none, GRADES, 8)).isZero();
    }

    @Test
    void noRelevantDocumentScoresZeroNotNaN() {
        Map<String, Integer> onlyIrrelevant = Map.of("c", 0);
        assertThat(Metrics.ndcg(RANKED, onlyIrrelevant, 10)).isZero();
        assertThat(Metrics.recall(RANKED, onlyIrrelevant, 10)).isZero();
        assertThat(Metrics.reciprocalRank(RANKED, onlyIrrelevant, 10)).isZero();
        assertThat(Metrics.ndcg(RANKED, Map.of(), 10)).isZero();
        assertThat(Metrics.noise(RANKED, onlyIrrelevant, 8)).isEqualTo(1.0);
    }

    @Test
    void repeatedIdsCountOnceWhereTheyFirstAppear() {
        // [b, b, a] is scored as [b, a]: DCG = 1 + 2/log2(3), so nDCG@2 = 0.85972 rather than the 1/(2+1/log2 3) of [b, b]
        assertThat(Metrics.ndcg(List.of("b", "b", "a"), GRADES, 2)).isCloseTo(0.8597186998521972, within(1e-12));
        assertThat(Metrics.relevantPrecision(List.of("b", "b", "x"), GRADES, 8)).isEqualTo(0.5);
    }

    @Test
    void negativeGradesCountAsNotRelevant() {
        assertThat(Metrics.ndcg(List.of("n", "a"), Map.of("n", -1, "a", 2), 10)).isCloseTo(1 / LOG2_3, within(EPS));
        assertThat(Metrics.noise(List.of("n", "a"), Map.of("n", -1, "a", 2), 8)).isEqualTo(0.5);
    }

    @Test
    void kMustBePositive() {
        assertThatThrownBy(() -> Metrics.ndcg(RANKED, GRADES, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k must be > 0, got 0");
    }

    @Test
    void suiteNamesAndScoresInOrder() {
        MetricSuite suite = MetricSuite.defaults();
        assertThat(suite.names()).containsExactly("mrr@10", "ndcg@10", "success@1", "success@5", "success@10",
                "recall@10", "recall@100", "relevant@8", "highly_relevant@8", "noise@8", "unjudged@8");
        Map<String, Double> m = suite.score(RANKED, GRADES);
        assertThat(m.keySet()).containsExactlyElementsOf(suite.names());
        assertThat(m.get("mrr@10")).isEqualTo(0.5);
        assertThat(m.get("success@1")).isZero();
        assertThat(m.get("noise@8")).isEqualTo(0.5);
        assertThat(suite.depth()).isEqualTo(100);
        assertThat(MetricSuite.withK(5).names()).contains("mrr@5", "ndcg@5", "recall@5", "recall@100");
    }
}
