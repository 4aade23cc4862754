package dev.neuraltext.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RrfFusionTest {

    private static final double EPS = 1e-12;

    static List<LegResult> list(String... ids) {
        List<LegResult> out = new java.util.ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            out.add(new LegResult(ids[i], 100 - i));
        }
        return out;
    }

    static Map<Leg, List<LegResult>> legs(Object... legAndList) {
        Map<Leg, List<LegResult>> m = new EnumMap<>(Leg.class);
        for (int i = 0; i < legAndList.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<LegResult> l = (List<LegResult>) legAndList[i + 1];
            m.put((Leg) legAndList[i], l);
        }
        return m;
    }

    static List<String> ids(List<FusedResult> results) {
        return results.stream().map(FusedResult::id).toList();
    }

    @Test
    void twoLegsEqualWeightsHandComputed() {
        // bm25: a b c ; dense: b d ; k = 60; max = 2/61
        List<FusedResult> out = Fusion.of(FusionMethod.rrf(60))
                .fuse(legs(Leg.BM25, list("a", "b", "c"), Leg.DENSE, list("b", "d")), 10);
        assertThat(ids(out)).containsExactly("b", "a", "d", "c");
        assertThat(out.get(0).fusedScore()).isCloseTo((1.0 / 62 + 1.0 / 61) / (2.0 / 61), within(EPS));
        assertThat(out.get(0).fusedScore()).isCloseTo(0.9919354838709677, within(EPS));
        assertThat(out.get(1).fusedScore()).isCloseTo(0.5, within(EPS));
        assertThat(out.get(2).fusedScore()).isCloseTo(61.0 / 124, within(EPS));
        assertThat(out.get(3).fusedScore()).isCloseTo(61.0 / 126, within(EPS));
        // every leg's rank and raw score is kept
        assertThat(out.get(0).legs()).containsExactlyInAnyOrderEntriesOf(Map.of(
                Leg.BM25, new LegScore(Leg.BM25, 2, 99), Leg.DENSE, new LegScore(Leg.DENSE, 1, 100)));
        assertThat(out.get(2).legs()).containsOnlyKeys(Leg.DENSE);
    }

    @Test
    void firstInEveryLegScoresExactlyOne() {
        List<FusedResult> out = Fusion.of(FusionMethod.rrf(60).withWeights(Map.of(Leg.DENSE, 0.3)))
                .fuse(legs(Leg.BM25, list("a", "b"), Leg.DENSE, list("a"), Leg.SPARSE, list("a", "c")), 10);
        assertThat(out.get(0).id()).isEqualTo("a");
        assertThat(out.get(0).fusedScore()).isEqualTo(1.0);
    }

    @Test
    void weightsHandComputed() {
        // k = 60, bm25 weight 2, dense weight 1; bm25: a b ; dense: b a ; max = 3/61
        FusionMethod.Rrf m = FusionMethod.rrf(60).withWeights(Map.of(Leg.BM25, 2.0));
        List<FusedResult> out = Fusion.of(m).fuse(legs(Leg.BM25, list("a", "b"), Leg.DENSE, list("b", "a")), 10);
        assertThat(ids(out)).containsExactly("a", "b");
        assertThat(out.get(0).fusedScore()).isCloseTo((2.0 / 61 + 1.0 / 62) * 61 / 3, within(EPS));
        assertThat(out.get(0).fusedScore()).isCloseTo(0.9946236559139785, within(EPS));
        assertThat(out.get(1).fusedScore()).isCloseTo((2.0 / 62 + 1.0 / 61) * 61 / 3, within(EPS));
        assertThat(out.get(1).fusedScore()).isCloseTo(0.9892473118279570, within(EPS));
    }

    @Test
    void exactTieBrokenByIdWhenBestRanksEqual() {
        // x: 1/61 + 1/62, y: 1/62 + 1/61, in either leg order; three legs so summation order could matter
        Map<Leg, List<LegResult>> in = legs(Leg.BM25, list("y", "x"), Leg.DENSE, list("x", "y"),
                Leg.SPARSE, list("q", "x", "y"));
        List<FusedResult> out = Fusion.of(FusionMethod.rrf(60)).fuse(in, 10);
        // x: 1/62 + 1/61 + 1/62 ; y: 1/61 + 1/62 + 1/63  -> x ahead
        assertThat(ids(out)).containsExactly("x", "y", "q");
        List<FusedResult> tie = Fusion.of(FusionMethod.rrf(60))
                .fuse(legs(Leg.BM25, list("y", "x"), Leg.DENSE, list("x", "y")), 10);
        assertThat(tie.get(0).fusedScore()).isEqualTo(tie.get(1).fusedScore());
        assertThat(ids(tie)).containsExactly("x", "y");
    }

    @Test
    void tieBrokenByBestRankBeforeId() {
        // k = 0, bm25 weight 2: bm25: z a -> z 2/1, a 2/2 = 1 ; dense: b -> 1/1 = 1 ; a and b tie at 1/3
        FusionMethod.Rrf m = FusionMethod.rrf(0).withWeights(Map.of(Leg.BM25, 2.0));
        List<FusedResult> out = Fusion.of(m).fuse(legs(Leg.BM25, list("z", "a"), Leg.DENSE, list("b")), 10);
        assertThat(ids(out)).containsExactly("z", "b", "a");
        assertThat(out.get(0).fusedScore()).isCloseTo(2.0 / 3, within(EPS));
        assertThat(out.get(1).fusedScore()).isEqualTo(out.get(2).fusedScore());
        assertThat(out.get(1).fusedScore()).isCloseTo(1.0 / 3, within(EPS));
    }

    @Test
    void legThatRanEmptyStillCountsInTheMaximum() {
        List<FusedResult> withEmpty = Fusion.of(FusionMethod.rrf(60))
                .fuse(legs(Leg.BM25, list("a"), Leg.DENSE, List.of()), 10);
        assertThat(withEmpty.get(0).fusedScore()).isCloseTo(0.5, within(EPS));
        List<FusedResult> alone = Fusion.of(FusionMethod.rrf(60)).fuse(legs(Leg.BM25, list("a")), 10);
        assertThat(alone.get(0).fusedScore()).isEqualTo(1.0);
    }

    @Test
    void singleLegKeepsItsOrder() {
        List<FusedResult> out = Fusion.of(FusionMethod.rrf(60)).fuse(legs(Leg.SPARSE, list("c", "a", "b")), 10);
        assertThat(ids(out)).containsExactly("c", "a", "b");
        assertThat(out.get(1).fusedScore()).isCloseTo(61.0 / 62, within(EPS));
        assertThat(out.get(2).fusedScore()).isCloseTo(61.0 / 63, within(EPS));
    }

    @Test
    void noLegsOrOnlyEmptyLegsGiveNothing() {
        assertThat(Fusion.of(FusionMethod.rrf(60)).fuse(Map.of(), 5)).isEmpty();
        assertThat(Fusion.of(FusionMethod.rrf(60)).fuse(legs(Leg.BM25, List.of(), Leg.DENSE, List.of()), 5))
                .isEmpty();
    }

    @Test
    void limitCutsAfterOrdering() {
        Map<Leg, List<LegResult>> in = legs(Leg.BM25, list("a", "b", "c"), Leg.DENSE, list("c", "b", "a"));
        // a, c: 1/61 + 1/63 = 124/3843 ; b: 2/62 = 124/3844 -> a and c tie ahead of b; a before c by id
        List<FusedResult> out = Fusion.of(FusionMethod.rrf(60)).fuse(in, 2);
        assertThat(ids(out)).containsExactly("a", "c");
        assertThat(Fusion.of(FusionMethod.rrf(60)).fuse(in, 100)).hasSize(3);
        assertThatThrownBy(() -> Fusion.of(FusionMethod.rrf(60)).fuse(in, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    }

    @Test
    void repeatedIdWithinALegKeepsItsFirstRank() {
        List<FusedResult> out = Fusion.of(FusionMethod.rrf(60))
                .fuse(legs(Leg.BM25, List.of(new LegResult("a", 3), new LegResult("a", 2), new LegResult("b", 1))), 10);
        assertThat(ids(out)).containsExactly("a", "b");
        assertThat(out.get(0).legs().get(Leg.BM25)).isEqualTo(new LegScore(Leg.BM25, 1, 3));
        assertThat(out.get(1).legs().get(Leg.BM25).rank()).isEqualTo(3);
    }

    @Test
    void zeroWeightsGiveZeroScoresOrderedByRankThenId() {
        FusionMethod.Rrf m = FusionMethod.rrf(60).withWeights(Map.of(Leg.BM25, 0.0, Leg.DENSE, 0.0));
        List<FusedResult> out = Fusion.of(m).fuse(legs(Leg.BM25, list("b", "c"), Leg.DENSE, list("a", "d")), 10);
        assertThat(ids(out)).containsExactly("a", "b", "c", "d");
        assertThat(out).allSatisfy(r -> assertThat(r.fusedScore()).isZero());
    }

    @Test
    void deterministicRegardlessOfMapType() {
        Map<Leg, List<LegResult>> a = new HashMap<>();
        a.put(Leg.SPARSE, list("s", "t"));
        a.put(Leg.BM25, list("t", "s"));
        Map<Leg, List<LegResult>> b = legs(Leg.BM25, list("t", "s"), Leg.SPARSE, list("s", "t"));
        assertThat(Fusion.of(FusionMethod.rrf(60)).fuse(a, 5)).isEqualTo(Fusion.of(FusionMethod.rrf(60)).fuse(b, 5));
    }

    @Test
    void badInputIsRejected() {
        Fusion f = Fusion.of(FusionMethod.rrf(60));
        assertThatThrownBy(() -> f.fuse(null, 5)).isInstanceOf(NullPointerException.class);
        Map<Leg, List<LegResult>> nullList = new HashMap<>();
        nullList.put(Leg.DENSE, null);
        assertThatThrownBy(() -> f.fuse(nullList, 5)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("dense");
        Map<Leg, List<LegResult>> nullKey = new HashMap<>();
        nullKey.put(null, List.of());
        assertThatThrownBy(() -> f.fuse(nullKey, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null key");
        assertThatThrownBy(() -> Fusion.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void factoryPicksTheImplementation() {
        assertThat(Fusion.of(FusionMethod.defaultMethod())).isInstanceOf(RrfFusion.class);
        assertThat(((RrfFusion) Fusion.of(FusionMethod.defaultMethod())).method().k()).isEqualTo(60);
        assertThat(Fusion.of(FusionMethod.alpha(0.5))).isInstanceOf(WeightedFusion.class);
    }

    @Test
    void staticHelpersForRemoteStores() {
        assertThat(RrfFusion.maxScore(60, Map.of(Leg.DENSE, 0.5), Set.of(Leg.BM25, Leg.DENSE)))
                .isCloseTo(1.5 / 61, within(EPS));
        assertThat(RrfFusion.maxScore(60, Map.of(), Set.of())).isZero();
        assertThat(RrfFusion.contribution(60, 2.0, 3)).isCloseTo(2.0 / 63, within(EPS));
        assertThatThrownBy(() -> RrfFusion.contribution(60, -1, 1)).hasMessageContaining("weight");
        assertThatThrownBy(() -> RrfFusion.contribution(-1, 1, 1)).hasMessageContaining("k");
    }

    @Test
    void matchesTheNormalisedHelperOnRandomLists() {
        java.util.Random rnd = new java.util.Random(7);
        for (int round = 0; round < 200; round++) {
            Map<Leg, List<LegResult>> in = new EnumMap<>(Leg.class);
            Map<Leg, Double> w = new EnumMap<>(Leg.class);
            for (Leg leg : Leg.values()) {
                if (rnd.nextBoolean()) {
                    int n = rnd.nextInt(6);
                    List<LegResult> l = new java.util.ArrayList<>();
                    java.util.List<String> pool = new java.util.ArrayList<>(List.of("a", "b", "c", "d", "e", "f"));
                    java.util.Collections.shuffle(pool, rnd);
                    for (int i = 0; i < n; i++) {
                        l.add(new LegResult(pool.get(i), rnd.nextGaussian()));
                    }
                    in.put(leg, l);
                    w.put(leg, rnd.nextInt(4) / 2.0);
                }
            }
            int k = rnd.nextInt(100);
            FusionMethod.Rrf m = new FusionMethod.Rrf(k, w);
            List<FusedResult> out = Fusion.of(m).fuse(in, 100);
            for (int i = 0; i < out.size(); i++) {
                FusedResult r = out.get(i);
                double raw = 0;
                for (LegScore s : r.legs().values()) {
                    raw += m.weight(s.leg()) / (k + s.rank());
                }
                double max = RrfFusion.maxScore(k, w, in.keySet());
                double expected = max == 0 ? 0 : Math.max(0, Math.min(1, raw / max));
                assertThat(r.fusedScore()).isCloseTo(expected, within(1e-12));
                assertThat(r.fusedScore()).isBetween(0.0, 1.0);
                if (i > 0) {
                    assertThat(FusionSupport.ORDER.compare(out.get(i - 1), r)).isNegative();
                }
            }
        }
    }
}
