package dev.neuraltext.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.cli.eval.ProgressBar;
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

class FusionFitTest {

    /** Random leg lists over 40 documents, with ties in rank between legs, and queries of varied shape. */
    private static FusionFit.DatasetLegs randomLegs(long seed) {
        Random random = new Random(seed);
        List<EvalDocument> docs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            docs.add(new EvalDocument("d" + i, "", "text " + i, Map.of()));
        }
        String[] texts = {"StringUtils isBlank", "how do I check that a string is blank", "RetryPolicy",
            "keep the splits of StopWatch.formatSplitTime as long", "withReuse(true)", "reuse a container"};
        List<EvalQuery> queries = new ArrayList<>();
        Map<String, Map<String, Integer>> qrels = new HashMap<>();
        List<Map<Leg, List<LegResult>>> legs = new ArrayList<>();
        for (int q = 0; q < 60; q++) {
            String id = "q" + q;
            queries.add(new EvalQuery(id, texts[q % texts.length], Map.of()));
            Map<String, Integer> grades = new HashMap<>();
            grades.put("d" + random.nextInt(40), 1);
            grades.put("d" + random.nextInt(40), 2);
            qrels.put(id, grades);
            Map<Leg, List<LegResult>> m = new EnumMap<>(Leg.class);
            for (Leg leg : List.of(Leg.BM25, Leg.DENSE)) {
                List<String> ids = new ArrayList<>();
                docs.forEach(d -> ids.add(d.id()));
                Collections.shuffle(ids, random);
                List<LegResult> list = new ArrayList<>();
                for (int r = 0; r < 5 + random.nextInt(30); r++) {
                    list.add(new LegResult(ids.get(r), 1.0 / (r + 1)));
                }
                m.put(leg, list);
            }
            legs.add(m);
        }
        EvalDataset dataset = EvalDataset.of("random", docs, queries, Qrels.of(qrels));
        return new FusionFit.DatasetLegs(dataset, dataset.queries(), legs);
    }

    @Test
    void theFastScoreAgreesWithTheLibrarysOwnFusion() {
        EvalRunner runner = EvalRunner.builder().metrics(MetricSuite.withK(10)).build();
        FusionFit fit = new FusionFit(runner);
        for (long seed = 1; seed <= 3; seed++) {
            FusionFit.DatasetLegs d = randomLegs(seed);
            for (GradedFusion f : List.of(GradedFusion.shapeSwitch(), new GradedFusion(10, 1, 2, -1, 0),
                    new GradedFusion(0, -1, 3, 1, 2), new GradedFusion(60, 0, 0, 0, 0))) {
                double reference = fit.run(d, "ref", f::methodFor, 10).overall().mean(runner.suite().mrr());
                assertThat(fit.mrr(d, f)).as("seed %d, %s", seed, FusionFit.describe(f))
                        .isCloseTo(reference, within(1e-12));
            }
        }
    }

    @Test
    void theUpperBoundIsAtLeastEveryWeightItChoosesFromAndPicksPerQuery() {
        FusionFit fit = new FusionFit(EvalRunner.builder().metrics(MetricSuite.withK(10)).build());
        for (long seed = 1; seed <= 3; seed++) {
            FusionFit.DatasetLegs d = randomLegs(seed);
            double bound = fit.oracle(d, 10);
            double bestFixed = 0;
            for (double w : FusionFit.ORACLE_WEIGHTS) {
                GradedFusion fixed = new GradedFusion(10, Math.log(w), 0, 0, 0);
                bestFixed = Math.max(bestFixed, fit.mrr(d, fixed));
            }
            // per query, not one weight for all: strictly better than the best single weight on random lists
            assertThat(bound).as("seed %d", seed).isGreaterThan(bestFixed).isLessThanOrEqualTo(1.0);
        }
    }

    @Test
    void theWorstGainFitIsNeverWorseOnItsTrainingDataThanTheBestLegWhenSomeCandidateIsnt() {
        FusionFit fit = new FusionFit(EvalRunner.builder().metrics(MetricSuite.withK(10)).build());
        List<FusionFit.DatasetLegs> data = List.of(randomLegs(1), randomLegs(2));
        String report = fit.report(data, ProgressBar.silent());
        assertThat(report).contains("Chosen by the best mean").contains("Chosen by the best smallest gain");
        GradedFusion chosen = fit.fittedOnAll();
        assertThat(chosen).isNotNull();
        double[] legs = new double[data.size()];
        for (int i = 0; i < data.size(); i++) {
            legs[i] = Math.max(fit.leg(data.get(i), Leg.BM25, 10).overall().mean("mrr@10"),
                    fit.leg(data.get(i), Leg.DENSE, 10).overall().mean("mrr@10"));
        }
        double worstChosen = Double.POSITIVE_INFINITY;
        double worstAny = Double.NEGATIVE_INFINITY;
        for (GradedFusion g : FusionFit.grid()) {
            double worst = Double.POSITIVE_INFINITY;
            for (int i = 0; i < data.size(); i++) {
                worst = Math.min(worst, fit.mrr(data.get(i), g) - legs[i]);
            }
            if (g.equals(chosen)) {
                worstChosen = worst;
            }
            worstAny = Math.max(worstAny, worst);
        }
        assertThat(worstChosen).isCloseTo(worstAny, within(1e-12));
    }

    @Test
    void theGridHoldsTheFormerSwitchAndTheDefault() {
        assertThat(FusionFit.grid()).contains(GradedFusion.shapeSwitch());
        assertThat(FusionFit.grid()).hasSizeGreaterThan(100);
    }
}
