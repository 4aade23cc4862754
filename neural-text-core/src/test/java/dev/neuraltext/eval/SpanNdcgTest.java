package dev.neuraltext.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpanNdcgTest {

    private static final double LOG2_3 = Math.log(3) / Math.log(2);

    private static RetrievedSpan chunk(String path, int from, int to) {
        return new RetrievedSpan(path, from, to);
    }

    @Test
    void pathsMatchWhenEqualOrOneIsASuffixAfterASlash() {
        assertThat(SpanNdcg.pathsMatch("client.py", "aiohttp/client.py")).isTrue();
        assertThat(SpanNdcg.pathsMatch("aiohttp/client.py", "client.py")).isTrue();
        assertThat(SpanNdcg.pathsMatch("a/b.go", "a/b.go")).isTrue();
        assertThat(SpanNdcg.pathsMatch("myclient.py", "client.py")).isFalse();
        assertThat(SpanNdcg.pathsMatch("web/client.py", "aiohttp/client.py")).isFalse();
    }

    @Test
    void singleFileTargetAtRankTwo() {
        List<RetrievedSpan> ranked = List.of(chunk("x.go", 1, 9), chunk("src/y.go", 40, 60), chunk("src/y.go", 1, 5));
        // found at rank 2: (1/log2(3)) / 1
        assertThat(SpanNdcg.chunkLevel(ranked, List.of(SpanTarget.file("y.go")), 10)).isCloseTo(1 / LOG2_3, within(1e-12));
    }

    @Test
    void spanTargetNeedsOverlappingLines() {
        List<RetrievedSpan> ranked = List.of(chunk("y.go", 1, 10), chunk("y.go", 11, 20), chunk("y.go", 21, 30));
        SpanTarget lines25to40 = new SpanTarget("y.go", 25, 40);
        // first overlapping chunk is rank 3: 1/log2(4) = 0.5
        assertThat(SpanNdcg.chunkLevel(ranked, List.of(lines25to40), 10)).isCloseTo(0.5, within(1e-12));
        // touching the boundary line counts as overlap
        assertThat(SpanNdcg.chunkLevel(ranked, List.of(new SpanTarget("y.go", 10, 10)), 10)).isCloseTo(1.0, within(1e-12));
        // a chunk without known lines never overlaps a span
        assertThat(SpanNdcg.chunkLevel(List.of(chunk("y.go", 0, 0)), List.of(lines25to40), 10)).isZero();
    }

    @Test
    void twoTargetsFoundAtTheSameRankCountOnce() {
        List<RetrievedSpan> ranked = List.of(chunk("a.c", 1, 100), chunk("b.c", 1, 10));
        List<SpanTarget> targets = List.of(new SpanTarget("a.c", 5, 6), new SpanTarget("a.c", 50, 60),
                SpanTarget.file("b.c"));
        // ranks {1, 2}: dcg = 1 + 1/log2(3); ideal of 3 ones = 1 + 1/log2(3) + 1/2
        double expected = (1 + 1 / LOG2_3) / (1 + 1 / LOG2_3 + 0.5);
        assertThat(SpanNdcg.chunkLevel(ranked, targets, 10)).isCloseTo(expected, within(1e-12));
    }

    @Test
    void onlyTheFirstKChunksCountAndTheIdealIsCappedAtK() {
        List<RetrievedSpan> ranked = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ranked.add(chunk("f" + i + ".rs", 1, 2));
        }
        // target at rank 11: outside the top 10
        assertThat(SpanNdcg.chunkLevel(ranked, List.of(SpanTarget.file("f10.rs")), 10)).isZero();
        List<SpanTarget> twelve = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            twelve.add(SpanTarget.file("f" + i + ".rs"));
        }
        // all ten positions hit, ideal capped at ten ones: 1.0
        assertThat(SpanNdcg.chunkLevel(ranked, twelve, 10)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void noTargetsScoresZero() {
        assertThat(SpanNdcg.chunkLevel(List.of(chunk("a", 1, 1)), List.of(), 10)).isZero();
    }

    @Test
    void fileLevelDeduplicatesFilesAndIgnoresSpans() {
        List<RetrievedSpan> ranked = List.of(chunk("a.ts", 1, 5), chunk("a.ts", 6, 9), chunk("b.ts", 1, 3),
                chunk("c.ts", 1, 3));
        List<SpanTarget> targets = List.of(new SpanTarget("c.ts", 100, 120));
        // chunk level: c.ts lines 1-3 do not overlap 100-120
        assertThat(SpanNdcg.chunkLevel(ranked, targets, 10)).isZero();
        // file level: files a, b, c -> found at rank 3: 1/log2(4) = 0.5
        assertThat(SpanNdcg.fileLevel(ranked, targets, 10)).isCloseTo(0.5, within(1e-12));
        // and the cut applies to files: with k = 2 the third file is out
        assertThat(SpanNdcg.fileLevel(ranked, targets, 2)).isZero();
    }

    @Test
    void badArgumentsAreRefusedWithTheValue() {
        assertThatThrownBy(() -> new SpanTarget("a", 5, 3)).hasMessageContaining("5-3");
        assertThatThrownBy(() -> SpanNdcg.chunkLevel(List.of(), List.of(), 0)).hasMessageContaining("got 0");
    }
}
