package dev.neuraltext.fusion;

import static dev.neuraltext.fusion.RrfFusionTest.ids;
import static dev.neuraltext.fusion.RrfFusionTest.legs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightedFusionTest {

    private static final double EPS = 1e-12;

    private static List<LegResult> scored(Object... idAndScore) {
        List<LegResult> out = new java.util.ArrayList<>();
        for (int i = 0; i < idAndScore.length; i += 2) {
            out.add(new LegResult((String) idAndScore[i], ((Number) idAndScore[i + 1]).doubleValue()));
        }
        return out;
    }

    @Test
    void convexCombinationOfMinMaxNormalisedScoresWithNegativeCosines() {
        // bm25 10, 6, 2 -> a 1, b 0.5, c 0 ; dense 0.2, -0.2, -0.6 -> c 1, a 0.5, d 0 ; weights 1:3 -> 0.25, 0.75
        FusionMethod.Weighted m = FusionMethod.weighted(Map.of(Leg.BM25, 1.0, Leg.DENSE, 3.0));
        List<FusedResult> out = Fusion.of(m).fuse(legs(
                Leg.BM25, scored("a", 10, "b", 6, "c", 2),
                Leg.DENSE, scored("c", 0.2, "a", -0.2, "d", -0.6)), 10);
        assertThat(ids(out)).containsExactly("c", "a", "b", "d");
        assertThat(out.get(0).fusedScore()).isCloseTo(0.75, within(EPS));
        assertThat(out.get(1).fusedScore()).isCloseTo(0.625, within(EPS));
        assertThat(out.get(2).fusedScore()).isCloseTo(0.125, within(EPS));
        assertThat(out.get(3).fusedScore()).isCloseTo(0.0, within(EPS));
        assertThat(out.get(1).legs()).containsExactlyInAnyOrderEntriesOf(Map.of(
                Leg.BM25, new LegScore(Leg.BM25, 1, 10), Leg.DENSE, new LegScore(Leg.DENSE, 2, -0.2)));
    }

    @Test
    void allEqualScoresNormaliseToOne() {
        List<FusedResult> out = Fusion.of(FusionMethod.weighted(Map.of()))
                .fuse(legs(Leg.BM25, scored("a", 3, "b", 3), Leg.DENSE, scored("c", 0.5)), 10);
        // every leg normalises to 1, equal weights 0.5 -> all 0.5; tie-break: best rank (a 1, c 1, b 2), then id
        assertThat(ids(out)).containsExactly("a", "c", "b");
        assertThat(out).allSatisfy(r -> assertThat(r.fusedScore()).isCloseTo(0.5, within(EPS)));
    }

    @Test
    void weightsOfTheLegsThatRanAreRescaled() {
        // alpha 0.5: dense 0.5, bm25 0.25, sparse 0.25; sparse did not run -> dense 2/3, bm25 1/3
        List<FusedResult> out = Fusion.of(FusionMethod.alpha(0.5))
                .fuse(legs(Leg.BM25, scored("a", 5, "b", 1), Leg.DENSE, scored("b", 0.9, "a", 0.1)), 10);
        assertThat(ids(out)).containsExactly("b", "a");
        assertThat(out.get(0).fusedScore()).isCloseTo(2.0 / 3, within(EPS));
        assertThat(out.get(1).fusedScore()).isCloseTo(1.0 / 3, within(EPS));
    }

    @Test
    void topOfEveryLegIsOneAndEmptyLegCountsInTheWeights() {
        List<FusedResult> all = Fusion.of(FusionMethod.alpha(0.3))
                .fuse(legs(Leg.BM25, scored("a", 7, "b", 1), Leg.DENSE, scored("a", 0.9, "b", 0.1),
                        Leg.SPARSE, scored("a", 2, "c", 1)), 10);
        assertThat(all.get(0).id()).isEqualTo("a");
        assertThat(all.get(0).fusedScore()).isEqualTo(1.0);
        List<FusedResult> emptyDense = Fusion.of(FusionMethod.weighted(Map.of()))
                .fuse(legs(Leg.BM25, scored("a", 7), Leg.DENSE, List.of()), 10);
        assertThat(emptyDense.get(0).fusedScore()).isCloseTo(0.5, within(EPS));
    }

    @Test
    void alphaOneWithoutDenseLegScoresZeroButKeepsRankOrder() {
        List<FusedResult> out = Fusion.of(FusionMethod.alpha(1.0))
                .fuse(legs(Leg.BM25, scored("b", 7, "a", 1)), 10);
        assertThat(ids(out)).containsExactly("b", "a");
        assertThat(out).allSatisfy(r -> assertThat(r.fusedScore()).isZero());
    }

    @Test
    void limitAndBadScores() {
        Fusion f = Fusion.of(FusionMethod.weighted(Map.of()));
        assertThat(ids(f.fuse(legs(Leg.BM25, scored("a", 3, "b", 2, "c", 1)), 2))).containsExactly("a", "b");
        assertThatThrownBy(() -> f.fuse(legs(Leg.BM25, scored("a", Double.POSITIVE_INFINITY)), 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite").hasMessageContaining("'a'");
        assertThatThrownBy(() -> f.fuse(legs(Leg.BM25, scored("a", 1)), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    }

    @Test
    void normalisationSurvivesHugeRanges() {
        assertThat(WeightedFusion.normalise(1e308, -1e308, 1e308)).isEqualTo(1.0);
        assertThat(WeightedFusion.normalise(0, -1e308, 1e308)).isEqualTo(0.5);
        assertThat(WeightedFusion.normalise(-1e308, -1e308, 1e308)).isEqualTo(0.0);
        assertThat(WeightedFusion.normalise(-3, -3, -3)).isEqualTo(1.0);
    }
}
