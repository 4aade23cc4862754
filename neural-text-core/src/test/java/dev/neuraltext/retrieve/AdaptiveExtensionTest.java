package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(d.floor()).isEqualTo(AdaptiveExtension.DEFAULT_FLOOR);
        assertThat(d.fetchSize(10)).isEqualTo(20);
    }

    @Test
    void extendsWhileScoresStayCloseAndStopsAtTheDrop() {
        AdaptiveExtension.Extension e = AdaptiveExtension.defaults()
                .apply(hits(0.9375, 0.9, 0.875, 0.86, 0.85, 0.6, 0.59), 2);
        assertThat(ids(e)).containsExactly("h0", "h1", "h2", "h3", "h4");
        assertThat(e.extended()).isTrue();
        assertThat(e.aboveThreshold()).isEqualTo(7);
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
        assertThatThrownBy(() -> AdaptiveExtension.builder().floor(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("floor");
        assertThatThrownBy(() -> AdaptiveExtension.defaults().apply(null, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ranked");
        assertThatThrownBy(() -> AdaptiveExtension.defaults().apply(hits(0.5), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    }

    @Test
    void toBuilderKeepsSettings() {
        AdaptiveExtension x = AdaptiveExtension.builder().overFetchFactor(3).maxGap(0.1).floor(0.25).build();
        AdaptiveExtension y = x.toBuilder().build();
        assertThat(y.overFetchFactor()).isEqualTo(3);
        assertThat(y.maxGap()).isEqualTo(0.1);
        assertThat(y.floor()).isEqualTo(0.25);
    }
}
