package dev.neuraltext.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.RrfFusion;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QdrantRrfTest {

    private static final double EPS = 1e-12;

    @Test
    void serverKPlusOneReproducesOurContributions() {
        // Qdrant scores 0-based position p as 1 / (p + k'): k' = k + 1 reproduces 1 / (k + rank)
        int kq = QdrantRrf.serverK(60);
        assertThat(kq).isEqualTo(61);
        for (int p = 0; p < 5; p++) {
            assertThat(1.0 / (p + kq)).isEqualTo(RrfFusion.contribution(60, 1.0, p + 1));
            assertThat(QdrantRrf.contribution(60, 1.0, p + 1)).isEqualTo(RrfFusion.contribution(60, 1.0, p + 1));
        }
        assertThat(QdrantRrf.contribution(60, 0, 1)).isZero();
        assertThatThrownBy(() -> QdrantRrf.serverK(-1)).hasMessageContaining("k");
        assertThatThrownBy(() -> QdrantRrf.serverK(Integer.MAX_VALUE)).hasMessageContaining("k");
    }

    @Test
    void normaliseDividesByTheMaximumAndClamps() {
        double raw = 1.0 / 61 + 1.0 / 62;
        double max = RrfFusion.maxScore(60, Map.of(), Set.of(Leg.BM25, Leg.DENSE));
        assertThat(QdrantRrf.normalise(raw, max)).isCloseTo(0.9919354838709677, within(EPS));
        assertThat(QdrantRrf.normalise(1.0, RrfFusion.maxScore(60, Map.of(), Set.of(Leg.BM25)))).isEqualTo(1.0);
        assertThat(QdrantRrf.normalise(0.5, 0)).isZero();
        assertThatThrownBy(() -> QdrantRrf.normalise(Double.NaN, 1)).hasMessageContaining("NaN");
    }
}
