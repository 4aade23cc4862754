package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdaptiveExtensionTest {

    private static List<SearchHit> hits(double... scores) {
        List<SearchHit> out = new ArrayList<>();
        for (int i = 0; i < scores.length; i++) {
            out.add(new SearchHit("h" + i, "text " + i, Map.of(), Map.of(), scores[i], scores[i], Map.of()));
        }
        return out;
    }

    private static List<String> ids(AdaptiveExtension.Extension e) {
        return e.hits().stream().map(SearchHit::id).toList();
    }

    @Test
    void defaultsAreDocumented() {
        AdaptiveExtension d = AdaptiveExtension.defaults();
        assertThat(d.overFetchFactor()).isEqualTo(2.0);
        assertThat(d.maxGap()).isEqualTo(0.05);
        assertThat(d.floor()).isEqualTo(0.5);
        assertThat(d.relativeFloor()).isEqualTo(0.75);
        assertThat(d.fetchSize(10)).isEqualTo(20);
    }

    @Test
    void extendsWhileScoresStayCloseAndStopsAtTheDrop() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults()
                .apply(hits(0.9375, 0.9, 0.875, 0.86, 0.85, 0.6, 0.59), 2);
        assertThat(ids(e)).containsExactly("h0", "h1", "h2", "h3", "h4");
        assertThat(e.extended()).isTrue();
        // 0.6 and 0.59 pass the floor 0.5 but not the relative floor 0.75 * 0.9375 = 0.703125
        assertThat(e.aboveThreshold()).isEqualTo(5);
    }

    @Test
    void doesNotResumeAfterTheFirstDrop() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults().apply(hits(0.9, 0.89, 0.7, 0.69, 0.68), 1);
        assertThat(ids(e)).containsExactly("h0", "h1");
        assertThat(e.extended()).isTrue();
    }

    @Test
    void noExtensionWhenTheNextScoreDrops() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults().apply(hits(0.9, 0.8, 0.79), 1);
        assertThat(ids(e)).containsExactly("h0");
        assertThat(e.extended()).isFalse();
        assertThat(e.aboveThreshold()).isEqualTo(3);
    }

    @Test
    void respectsTheFloorIncludingExactlyAtIt() {
        AdaptiveExtension x = AdaptiveExtension.builder().floor(0.5).maxGap(0.25).build();
        AdaptiveExtension.Extension e = x.apply(hits(0.625, 0.5625, 0.5, 0.4375, 0.4375), 1);
        assertThat(ids(e)).containsExactly("h0", "h1", "h2"); // 0.5 >= floor, 0.4375 < floor
        assertThat(e.aboveThreshold()).isEqualTo(3);
        assertThat(e.extended()).isTrue();
    }

    @Test
    void theLimitIsAlwaysReturnedEvenBelowTheFloor() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults().apply(hits(0.2, 0.19, 0.18, 0.17), 2);
        assertThat(ids(e)).containsExactly("h0", "h1");
        assertThat(e.aboveThreshold()).isZero();
        assertThat(e.extended()).isFalse();
    }

    @Test
    void limitLargerThanTheCandidates() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults().apply(hits(0.9, 0.3, 0.1), 10);
        assertThat(ids(e)).containsExactly("h0", "h1", "h2");
        assertThat(e.extended()).isFalse();
        assertThat(e.aboveThreshold()).isEqualTo(1);
    }

    @Test
    void neverBeyondTheFetchedCandidates() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults().apply(hits(0.8, 0.8, 0.8, 0.8, 0.8), 2);
        assertThat(e.hits()).hasSize(5);
        assertThat(e.extended()).isTrue();
    }

    @Test
    void gapExactlyAtTheThresholdStops() {
        // binary-exact values: 0.75 - 0.6875 == 0.0625 exactly
        AdaptiveExtension x = AdaptiveExtension.builder().maxGap(0.0625).floor(0.0).build();
        assertThat(ids(x.apply(hits(0.75, 0.6875), 1))).containsExactly("h0");
        // just under the gap: 0.75 - 0.6953125 = 0.0546875
        assertThat(ids(x.apply(hits(0.75, 0.6953125), 1))).containsExactly("h0", "h1");
    }

    @Test
    void gapIsMeasuredFromThePreviousHitNotTheLastOfTheLimit() {
        // each step drops 0.03125 < 0.0625 although the total drop from h0 is far larger than the gap
        AdaptiveExtension x = AdaptiveExtension.builder().maxGap(0.0625).floor(0.0).build();
        assertThat(x.apply(hits(1.0, 0.96875, 0.9375, 0.90625, 0.875, 0.84375), 1).hits()).hasSize(6);
    }

    @Test
    void emptyInput() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults().apply(List.of(), 5);
        assertThat(e.hits()).isEmpty();
        assertThat(e.aboveThreshold()).isZero();
        assertThat(e.extended()).isFalse();
    }

    @Test
    void fetchSize() {
        assertThat(AdaptiveExtension.builder().overFetchFactor(1.5).build().fetchSize(3)).isEqualTo(5);
        assertThat(AdaptiveExtension.builder().overFetchFactor(1.0).build().fetchSize(7)).isEqualTo(7);
        assertThat(AdaptiveExtension.builder().overFetchFactor(3).build().fetchSize(Integer.MAX_VALUE / 2))
                .isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> AdaptiveExtension.defaults().fetchSize(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit").hasMessageContaining("0");
    }

    @Test
    void validationNamesTheSettingAndTheValue() {
        assertThatThrownBy(() -> AdaptiveExtension.builder().overFetchFactor(0.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("overFetchFactor must be a finite value >= 1, got 0.5");
        assertThatThrownBy(() -> AdaptiveExtension.builder().overFetchFactor(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> AdaptiveExtension.builder().maxGap(-0.1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxGap").hasMessageContaining("-0.1");
        assertThatThrownBy(() -> AdaptiveExtension.builder().maxGap(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxGap");
        assertThatThrownBy(() -> AdaptiveExtension.builder().floor(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("floor must be in [0, 1], got 1.5");
        assertThatThrownBy(() -> AdaptiveExtension.builder().relativeFloor(-0.25))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("relativeFloor must be in [0, 1], got -0.25");
        assertThatThrownBy(() -> AdaptiveExtension.builder().floor(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("floor");
        assertThatThrownBy(() -> AdaptiveExtension.defaults().apply(null, 1))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("ranked");
        assertThatThrownBy(() -> AdaptiveExtension.defaults().apply(hits(0.5), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    }

    @Test
    void toBuilderKeepsSettings() {
        AdaptiveExtension x = AdaptiveExtension.builder().overFetchFactor(3).maxGap(0.1).floor(0.25)
                .relativeFloor(0.5).build();
        AdaptiveExtension y = x.toBuilder().build();
        assertThat(y.relativeFloor()).isEqualTo(0.5);
        assertThat(y.overFetchFactor()).isEqualTo(3);
        assertThat(y.maxGap()).isEqualTo(0.1);
        assertThat(y.floor()).isEqualTo(0.25);
    }

    private static SearchHit legHit(String id, double score, Leg leg, int rank, double raw) {
        return new SearchHit(id, "text " + id, Map.of(), Map.of(), score, score, Map.of(leg, new LegScore(leg, rank, raw)));
    }

    @Test
    void theRelativeFloorStopsExtensionBelowAShareOfTheTopScore() {
        // gap and absolute floor would let all of them through; 0.75 * 0.96875 = 0.7265625
        AdaptiveExtension x = AdaptiveExtension.builder().floor(0.0).maxGap(0.25).relativeFloor(0.75).build();
        AdaptiveExtension.Extension e = x.apply(hits(0.96875, 0.9, 0.8, 0.75, 0.7265625, 0.72, 0.6), 2);
        assertThat(ids(e)).containsExactly("h0", "h1", "h2", "h3", "h4"); // exactly at the relative floor counts
        assertThat(e.aboveThreshold()).isEqualTo(5);
        // relative floor 0 is the old behaviour: only gap and floor
        assertThat(x.toBuilder().relativeFloor(0).build().apply(hits(0.96875, 0.9, 0.8, 0.75, 0.7265625, 0.72, 0.6), 2)
                .hits()).hasSize(7);
    }

    @Test
    void aSingleLegListUsesTheLegsRawScoresBecauseItsFusedScoresOnlyEncodeTheRank() {
        // one-leg RRF scores (k = 60): 61/61, 61/62, 61/63, 61/64 -- close together and all above 0.75
        // raw BM25 scores 10, 9, 7.5, 7: the relative floor 0.75 * 10 = 7.5 keeps the third, stops at the fourth
        List<SearchHit> ranked = List.of(legHit("a", 1.0, Leg.BM25, 1, 10), legHit("b", 61.0 / 62, Leg.BM25, 2, 9),
                legHit("c", 61.0 / 63, Leg.BM25, 3, 7.5), legHit("d", 61.0 / 64, Leg.BM25, 4, 7));
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults().apply(ranked, 1);
        assertThat(ids(e)).containsExactly("a", "b", "c");
        assertThat(e.aboveThreshold()).isEqualTo(3);
        assertThat(AdaptiveExtension.evidence(ranked)).containsExactly(10, 9, 7.5, 7);
    }

    @Test
    void fusedScoresAreTheEvidenceForMultiLegRerankedOrNegativeRawLists() {
        SearchHit twoLegs = new SearchHit("x", "t", Map.of(), Map.of(), 0.5, 0.5,
                Map.of(Leg.BM25, new LegScore(Leg.BM25, 1, 3), Leg.DENSE, new LegScore(Leg.DENSE, 1, 0.9)));
        assertThat(AdaptiveExtension.evidence(List.of(twoLegs, legHit("y", 0.4, Leg.BM25, 2, 2)))).containsExactly(0.5, 0.4);
        SearchHit reranked = legHit("r", 0.9, Leg.BM25, 1, 5).withScore(0.25);
        assertThat(AdaptiveExtension.evidence(List.of(reranked))).containsExactly(0.25);
        assertThat(AdaptiveExtension.evidence(List.of(legHit("n", 1.0, Leg.DENSE, 1, 0.3),
                legHit("m", 0.9, Leg.DENSE, 2, -0.1)))).containsExactly(1.0, 0.9);
        assertThat(AdaptiveExtension.evidence(List.of(legHit("p", 1.0, Leg.DENSE, 1, 0.3),
                legHit("q", 0.9, Leg.BM25, 1, 4)))).containsExactly(1.0, 0.9); // different legs
    }
}
