package dev.neuraltext.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.cli.eval.SembleHarness;
import dev.neuraltext.cli.eval.SembleDataset;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.eval.SpanTarget;
import dev.neuraltext.retrieve.PreparedCandidates;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ranking fit on synthetic candidates whose answer a single signal reveals. */
class SembleRankFitTest {

    private static final SembleRankFit FIT = new SembleRankFit(System.err);

    private static SearchHit hit(String path, String symbol, String type, double fused) {
        return new SearchHit(path + "#" + symbol, symbol, Map.of(ChunkMetadata.PATH, path, ChunkMetadata.SYMBOL, symbol,
                ChunkMetadata.SYMBOL_TYPE, "method", ChunkMetadata.TYPE, type), Map.of(), fused, fused, Map.of());
    }

    /** Each question: prose ranked first, the answer (code) second; NDCG 1/log2(3) unranked, 1 once prose sinks. */
    private static SembleRankFit.PreparedRepo repo(String name, String language, int questions) {
        RepositoryRanking probe = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, Map.of());
        List<SembleRankFit.Prepared> qs = new ArrayList<>();
        for (int i = 0; i < questions; i++) {
            List<SearchHit> hits = List.of(hit("docs/guide" + i + ".md", "Guide", ChunkMetadata.TYPE_DOC, 1.0),
                    hit("src/Worker" + i + ".java", "execute", ChunkMetadata.TYPE_CODE, 0.9));
            String query = "how does step " + i + " run";
            PreparedCandidates c = PreparedCandidates.of(probe, query, hits);
            qs.add(new SembleRankFit.Prepared(c, SembleHarness.spans(c.hits(), ""), new SembleDataset.Question(query,
                    "semantic", List.of(SpanTarget.file("src/Worker" + i + ".java")))));
        }
        return new SembleRankFit.PreparedRepo(name, language, qs);
    }

    @Test
    void theFitFindsTheProsePriorAndScoresTheWeightsHeldOut() {
        List<SembleRankFit.PreparedRepo> repos = List.of(repo("a", "x", 3), repo("b", "y", 2));
        double unranked = SembleRankFit.score(repos, RepositoryRanking.off());
        assertThat(unranked).isCloseTo(Math.log(2) / Math.log(3), within(1e-9));
        RepositoryRanking fitted = FIT.fit(repos, new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH,
                Map.of()));
        assertThat(fitted.weights().get("doc.natural")).isLessThan(-0.1);
        assertThat(SembleRankFit.score(repos, fitted)).isCloseTo(1.0, within(1e-9));
        String report = new SembleRankFit(System.err).report(repos);
        assertThat(report).contains("| **mean** | | **0.631** |", "`doc.natural` = ", "without x: ");
    }

    @Test
    void steepestAscentMakesTheBestMoveWhereCyclicAscentTakesTheFirstThatGains() {
        // prose first, the code answer second; in half the questions the query names the answer's symbol, so the
        // definition weight (listed before the prose prior) fixes those and the prose prior fixes all
        RepositoryRanking probe = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, Map.of());
        List<SembleRankFit.Prepared> qs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            List<SearchHit> hits = List.of(hit("docs/guide" + i + ".md", "Guide", ChunkMetadata.TYPE_DOC, 1.0),
                    hit("src/Worker" + i + ".java", "execute", ChunkMetadata.TYPE_CODE, 0.9));
            String query = i % 2 == 0 ? "how does step " + i + " execute" : "how does step " + i + " run";
            PreparedCandidates c = PreparedCandidates.of(probe, query, hits);
            qs.add(new SembleRankFit.Prepared(c, SembleHarness.spans(c.hits(), ""), new SembleDataset.Question(query,
                    "semantic", List.of(SpanTarget.file("src/Worker" + i + ".java")))));
        }
        List<SembleRankFit.PreparedRepo> repos = List.of(new SembleRankFit.PreparedRepo("a", "x", qs));

        RepositoryRanking cyclic = FIT.fit(repos, probe);
        RepositoryRanking steepest = FIT.steepest(repos, probe);

        assertThat(cyclic.weights().get("definition.natural")).isPositive();
        assertThat(steepest.weights().get("definition.natural")).isZero();
        assertThat(steepest.weights().get("doc.natural")).isLessThan(-0.1);
        assertThat(SembleRankFit.score(repos, steepest)).isCloseTo(1.0, within(1e-9));
        assertThat(steepest.weights().values().stream().filter(w -> w != 0)).hasSize(1);
    }

    @Test
    void theLogisticAndTheBaggedFitsFindItToo() {
        List<SembleRankFit.PreparedRepo> repos = List.of(repo("a", "x", 3), repo("b", "y", 2), repo("c", "z", 4));
        RepositoryRanking linear = SembleLinearFit.fit(repos, SembleLinearFit.DEFAULT_LAMBDA);
        assertThat(linear.weights().get("doc.natural")).isLessThan(0);
        assertThat(SembleRankFit.score(repos, linear)).isCloseTo(1.0, within(1e-9));
        RepositoryRanking bagged = FIT.bagged(repos, new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH,
                Map.of()));
        assertThat(bagged.weights().get("doc.natural")).isLessThan(-0.1);
        assertThat(SembleRankFit.score(repos, bagged)).isCloseTo(1.0, within(1e-9));
        // deterministic: the same samples, the same mean
        assertThat(FIT.bagged(repos, RepositoryRanking.off()).weights()).isEqualTo(bagged.weights());
    }

    @Test
    void evidenceNeverGetsANegativeWeight() {
        // the prose answer's file is named by the query, the code answer's is not: a negative file-name weight would
        // fix every question as well as the prose prior does, and coordinate ascent tries file names first
        RepositoryRanking probe = new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH, Map.of());
        List<SembleRankFit.Prepared> qs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<SearchHit> hits = List.of(hit("docs/guide.md", "Guide", ChunkMetadata.TYPE_DOC, 1.0),
                    hit("src/Worker" + i + ".java", "execute", ChunkMetadata.TYPE_CODE, 0.9));
            String query = "how does the guide step " + i + " run";
            PreparedCandidates c = PreparedCandidates.of(probe, query, hits);
            qs.add(new SembleRankFit.Prepared(c, SembleHarness.spans(c.hits(), ""), new SembleDataset.Question(query,
                    "semantic", List.of(SpanTarget.file("src/Worker" + i + ".java")))));
        }
        List<SembleRankFit.PreparedRepo> repos = List.of(new SembleRankFit.PreparedRepo("a", "x", qs));
        RepositoryRanking fitted = FIT.fit(repos, new RepositoryRanking(RepositoryRanking.DEFAULT_DEPTH,
                Map.of()));
        assertThat(SembleRankFit.score(repos, fitted)).isCloseTo(1.0, within(1e-9));
        fitted.weights().forEach((name, w) -> {
            if (SembleRankFit.isEvidence(name)) {
                // a mixed query's weight is the natural-language one plus its own: the sum must not be negative
                double effective = name.endsWith(".mixed") ? w + fitted.weights().get(name.replace(".mixed", ".natural"))
                        : w;
                assertThat(effective).as(name).isGreaterThanOrEqualTo(0);
            }
        });
        assertThat(fitted.weights().get("doc.natural")).isLessThan(-0.1);
        assertThat(SembleRankFit.isEvidence("bm25First.natural")).isTrue();
        assertThat(SembleRankFit.isEvidence("folder")).isTrue();
        assertThat(SembleRankFit.isEvidence("platform")).isFalse();
    }

    @Test
    void aMixedEvidenceWeightMayOnlyTakeBackWhatTheNaturalOneGives() {
        RepositoryRanking r = new RepositoryRanking(50, Map.of("dense.natural", 1.0));
        assertThat(SembleRankFit.negative(r, "dense.mixed", -0.5)).isFalse();
        assertThat(SembleRankFit.negative(r, "dense.mixed", -1.5)).isTrue();
        assertThat(SembleRankFit.negative(r, "dense.natural", -0.1)).isTrue();
        RepositoryRanking lowered = r.withWeights(Map.of("dense.mixed", -1.0));
        assertThat(SembleRankFit.negative(lowered, "dense.natural", 0.5)).as("would leave mixed at -0.5").isTrue();
        assertThat(SembleRankFit.negative(lowered, "dense.natural", 2.0)).isFalse();
        assertThat(SembleRankFit.negative(r, "dense.symbol", -0.1)).isTrue();
    }

    @Test
    void theEvidenceSignalsAreTheTablesAndTheSameAsBefore() {
        assertThat(SembleRankFit.EVIDENCE).containsExactlyInAnyOrder("definition", "typeDefinition", "fileName",
                "fileQueried", "fileEvidence", "fileDense", "bm25", "bm25First", "dense", "folder", "fileNameCovered",
                "fileCandidates");
    }
}
