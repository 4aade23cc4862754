package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import org.junit.jupiter.api.Test;

class GradedFusionTest {

    @Test
    void featuresCountCodeMarkedAndStopWordTokens() {
        QueryAnalyzer.Features f = QueryAnalyzer.features("Keep StopWatch.formatSplitTime from clamping splits to int");
        assertThat(f.tokens()).isEqualTo(7);
        assertThat(f.codeShare()).isCloseTo(1.0 / 7, within(1e-12));
        assertThat(f.stopWordShare()).isCloseTo(2.0 / 7, within(1e-12));
        assertThat(f.identifierShaped()).isFalse();
        QueryAnalyzer.Features id = QueryAnalyzer.features("StringUtils isBlank");
        assertThat(id.codeShare()).isEqualTo(1.0);
        assertThat(id.stopWordShare()).isZero();
        assertThat(id.identifierShaped()).isTrue();
        assertThat(QueryAnalyzer.features("   ")).isEqualTo(new QueryAnalyzer.Features(0, 0, 0, false));
    }

    @Test
    void shapeSwitchIsTheFormerBinaryRule() {
        GradedFusion s = GradedFusion.shapeSwitch();
        assertThat(s.methodFor("StringUtils isBlank").k()).isEqualTo(20);
        assertThat(s.bm25Weight("StringUtils isBlank")).isCloseTo(10, within(1e-9));
        assertThat(s.bm25Weight("how are fused scores normalised")).isCloseTo(1, within(1e-9));
        assertThat(s.methodFor("how are fused scores normalised").weight(Leg.DENSE)).isEqualTo(1);
    }

    @Test
    void weightIsGradedByTheFeaturesAndBounded() {
        GradedFusion g = new GradedFusion(30, 0.5, 2, -1, 0);
        // 1 of 5 tokens code-marked, 2 of 5 stop words
        assertThat(g.bm25Weight("retry the policy of RetryPolicy")).isCloseTo(Math.exp(0.5 + 0.2 * 2 - 0.4),
                within(1e-9));
        assertThat(g.bm25Weight("how the retry works")).isLessThan(g.bm25Weight("RetryPolicy works"));
        GradedFusion extreme = new GradedFusion(30, 50, 0, 0, 0);
        assertThat(extreme.bm25Weight("anything")).isEqualTo(GradedFusion.MAX_WEIGHT_RATIO);
        assertThat(new GradedFusion(30, -50, 0, 0, 0).bm25Weight("anything"))
                .isEqualTo(1 / GradedFusion.MAX_WEIGHT_RATIO);
        FusionMethod.Rrf m = g.methodFor("RetryPolicy");
        assertThat(m.k()).isEqualTo(30);
        assertThat(m.weight(Leg.BM25)).isEqualTo(g.bm25Weight("RetryPolicy"));
    }

    @Test
    void theDefaultWeighsIdentifiersUpAndSentencesDown() {
        GradedFusion d = GradedFusion.defaults();
        assertThat(d.bm25Weight("StringUtils isBlank")).isCloseTo(Math.exp(2.5), within(1e-6));
        assertThat(d.bm25Weight("Contributing new container modules")).isCloseTo(Math.exp(0.5), within(1e-6));
        assertThat(d.bm25Weight("Contributing new modules")).as("three words: keyword-shaped").isCloseTo(Math.exp(2.5),
                within(1e-6));
        assertThat(d.bm25Weight("how are the fused scores normalised")).isCloseTo(Math.exp(0.5 - 0.5), within(1e-6));
        assertThat(d.methodFor("anything").k()).isEqualTo(10);
    }

    @Test
    void badParametersNameTheValue() {
        assertThatThrownBy(() -> new GradedFusion(-1, 0, 0, 0, 0)).hasMessageContaining("k must be >= 0, got -1");
        assertThatThrownBy(() -> new GradedFusion(1, Double.NaN, 0, 0, 0)).hasMessageContaining("bias")
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> new GradedFusion(1, 0, Double.POSITIVE_INFINITY, 0, 0))
                .hasMessageContaining("codeCoefficient");
        assertThatThrownBy(() -> GradedFusion.defaults().methodFor(null)).isInstanceOf(NullPointerException.class);
    }
}
