package dev.neuraltext.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.eval.EvalRunner;
import dev.neuraltext.eval.MetricSuite;
import dev.neuraltext.eval.Qrels;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.retrieve.GradedFusion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BeyondWeightsTest {

    private final FusionFit fit = new FusionFit(EvalRunner.builder().metrics(MetricSuite.withK(10)).build());
    private final BeyondWeights beyond = new BeyondWeights(fit, GradedFusion.defaults());

    private static List<LegResult> list(String... ids) {
        List<LegResult> out = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            out.add(new LegResult(ids[i], 1.0 / (i + 1)));
        }
        return out;
    }

    /** One query over chunks a#1, a#2 (file a) and b#1 (file b), relevant: a#2, with the given lists. */
    private static FusionFit.DatasetLegs one(List<LegResult> bm25, List<LegResult> dense,
            Map<String, List<List<LegResult>>> extra) {
        List<EvalDocument> docs = List.of(new EvalDocument("a#1", "", "x", Map.of()),
                new EvalDocument("a#2", "", "y", Map.of()), new EvalDocument("b#1", "", "z", Map.of()));
        // "a sentence that is in English" is not identifier-shaped: BM25 weight exp(0.5 - 1 * stop share)
        List<EvalQuery> queries = List.of(new EvalQuery("q", "a sentence that is in English", Map.of()));
        EvalDataset dataset = EvalDataset.of("one", docs, queries, Qrels.of(Map.of("q", Map.of("a#2", 1))));
        Map<Leg, List<LegResult>> legs = new EnumMap<>(Leg.class);
        legs.put(Leg.BM25, bm25);
        legs.put(Leg.DENSE, dense);
        return new FusionFit.DatasetLegs(dataset, dataset.queries(), List.of(legs), extra,
                Map.of("a#1", "a", "a#2", "a", "b#1", "b"));
    }

    @Test
    void theDefaultVariantRanksAsTheLibrarysFusion() {
        Random random = new Random(7);
        List<EvalDocument> docs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            docs.add(new EvalDocument("d" + i, "", "t", Map.of()));
        }
        String[] texts = {"StringUtils isBlank", "how do I check that a string is blank", "withReuse(true)"};
        List<EvalQuery> queries = new ArrayList<>();
        Map<String, Map<String, Integer>> qrels = new HashMap<>();
        List<Map<Leg, List<LegResult>>> legs = new ArrayList<>();
        for (int q = 0; q < 40; q++) {
            queries.add(new EvalQuery("q" + q, texts[q % texts.length], Map.of()));
            qrels.put("q" + q, Map.of("d" + random.nextInt(30), 1));
            Map<Leg, List<LegResult>> m = new EnumMap<>(Leg.class);
            for (Leg leg : List.of(Leg.BM25, Leg.DENSE)) {
                List<String> ids = new ArrayList<>();
                docs.forEach(d -> ids.add(d.id()));
                Collections.shuffle(ids, random);
                m.put(leg, list(ids.subList(0, 3 + random.nextInt(20)).toArray(String[]::new)));
            }
            legs.add(m);
        }
        EvalDataset dataset = EvalDataset.of("random", docs, queries, Qrels.of(qrels));
        FusionFit.DatasetLegs d = new FusionFit.DatasetLegs(dataset, dataset.queries(), legs);
        assertThat(beyond.mrr(d, BeyondWeights.Variant.base()))
                .isCloseTo(fit.mrr(d, GradedFusion.defaults()), within(1e-12));
    }

    @Test
    void siblingEvidenceLiftsAChunkWhoseFileHoldsAnotherStrongCandidate() {
        // a#1 is first in both legs, b#1 second in both, a#2 third in both: only its sibling a#1 can lift a#2 over
        // b#1 (a#1 gains from a#2 too, and stays first)
        FusionFit.DatasetLegs d = one(list("a#1", "b#1", "a#2"), list("a#1", "b#1", "a#2"), Map.of());
        assertThat(beyond.ranked(d, 0, BeyondWeights.Variant.base())).containsExactly("a#1", "b#1", "a#2");
        BeyondWeights.Variant sibling = new BeyondWeights.Variant("structure", "s", null, null, 0, false, 0.5, 0);
        assertThat(beyond.ranked(d, 0, sibling)).containsExactly("a#1", "a#2", "b#1");
        assertThat(beyond.mrr(d, sibling)).isEqualTo(0.5);
        BeyondWeights.Variant small = new BeyondWeights.Variant("structure", "s", null, null, 0, false, 0.01, 0);
        assertThat(beyond.ranked(d, 0, small)).containsExactly("a#1", "b#1", "a#2");
    }

    @Test
    void agreementLiftsOnlyWhatBothLegsRankHigh() {
        // a#2 is fifth in both legs; b#1 is first in BM25 and sixth in dense, so it leads the plain fusion
        FusionFit.DatasetLegs d = one(list("b#1", "c", "d", "e", "a#2"), list("a#1", "f", "g", "h", "a#2", "b#1"),
                Map.of());
        assertThat(beyond.ranked(d, 0, BeyondWeights.Variant.base()).get(0)).isEqualTo("b#1");
        BeyondWeights.Variant agree = new BeyondWeights.Variant("agreement", "a", null, null, 0, false, 0, 0.5);
        assertThat(beyond.ranked(d, 0, agree).get(0)).isEqualTo("a#2");
    }

    @Test
    void aFileLevelThirdLegGivesEveryChunkOfTheFileItsFilesContribution() {
        FusionFit.DatasetLegs d = one(list("b#1", "a#1", "a#2"), list("b#1", "a#1", "a#2"),
                Map.of(BeyondWeights.FILE_BM25, List.of(list("a", "b"))));
        BeyondWeights.Variant byFile = BeyondWeights.Variant.base()
                .third("f", "f", BeyondWeights.FILE_BM25, 10, true);
        List<String> ranked = beyond.ranked(d, 0, byFile);
        assertThat(ranked).containsExactly("a#1", "a#2", "b#1");
    }

    @Test
    void aCodeOnlyThirdLegIsSkippedForAnEnglishSentence() {
        FusionFit.DatasetLegs d = one(list("b#1"), list("b#1"), Map.of(BeyondWeights.GREP, List.of(list("a#2"))));
        BeyondWeights.Variant grep = BeyondWeights.Variant.base().third("g", "g", BeyondWeights.GREP, 10, false);
        assertThat(beyond.ranked(d, 0, grep).get(0)).isEqualTo("a#2");
        assertThat(beyond.ranked(d, 0, grep.onCodeOnly())).containsExactly("b#1");
        assertThat(grep.onCodeOnly().family()).endsWith("code-like queries only");
        assertThat(BeyondWeights.codeShare("a sentence that is in English")).isZero();
        assertThat(BeyondWeights.codeShare("container.start()")).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void anExpressionQueryIsACodeQueryWithAMemberAccessOrACall() {
        assertThat(BeyondWeights.isExpressionQuery("container.start()")).isTrue();
        assertThat(BeyondWeights.isExpressionQuery("withReuse()")).isTrue();
        assertThat(BeyondWeights.isExpressionQuery("org.example.KafkaContainer")).isTrue();
        assertThat(BeyondWeights.isExpressionQuery("KafkaContainer")).isFalse();
        assertThat(BeyondWeights.isExpressionQuery("StringUtils isBlank")).isFalse();
        assertThat(BeyondWeights.isExpressionQuery("keep StopWatch.formatSplitTime from clamping splits")).isFalse();
        FusionFit.DatasetLegs d = one(list("b#1"), list("b#1"), Map.of(BeyondWeights.GREP, List.of(list("a#2"))));
        BeyondWeights.Variant grep = BeyondWeights.Variant.base().third("g", "g", BeyondWeights.GREP, 10, false);
        assertThat(beyond.ranked(d, 0, grep.onExpressionOnly())).containsExactly("b#1");
    }

    @Test
    void aReplacedDenseLegIsReadFromTheExtraLists() {
        FusionFit.DatasetLegs d = one(list("b#1"), list("b#1"), Map.of("dense x", List.of(list("a#2"))));
        BeyondWeights.Variant replaced = new BeyondWeights.Variant("r", "r", "dense x", null, 0, false, 0, 0);
        assertThat(beyond.ranked(d, 0, replaced)).containsExactlyInAnyOrder("a#2", "b#1");
        assertThat(beyond.ranked(d, 0, BeyondWeights.Variant.base())).containsExactly("b#1");
    }

    @Test
    void theReportChoosesEachFamilyOnTheOtherDatasets() {
        FusionFit.DatasetLegs d1 = one(list("a#1", "b#1", "a#2"), list("a#1", "b#1", "a#2"),
                Map.of(BeyondWeights.FILE_BM25, List.of(list("a"))));
        String report = beyond.report(List.of(d1, d1));
        assertThat(report).contains("| structure | + 0.5 x best sibling in the file | 0.500 | 0.500 |")
                .contains("| default | default graded fusion | 0.333 | 0.333 |")
                .contains("held out: chosen, figure (default)");
    }

    @Test
    void variantsCoverEveryExtraList() {
        List<BeyondWeights.Variant> v = BeyondWeights.variants(Map.of(BeyondWeights.FILE_BM25, List.of(),
                "dense w", List.of()));
        assertThat(v).anyMatch(x -> BeyondWeights.FILE_BM25.equals(x.thirdList()) && x.thirdByFile());
        assertThat(v).anyMatch(x -> "dense w".equals(x.denseList()));
        assertThat(v.get(0)).isEqualTo(BeyondWeights.Variant.base());
    }
}
