package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The signal table is the one place the ranking, its weights and the fit read. */
class RankingSignalTest {

    @Test
    void theDefaultsAreTheFittedWholeRepositoryWeights() {
        Map<String, Double> nonZero = Map.ofEntries(
                Map.entry("fileQueried.symbol", 2.0), Map.entry("fileQueried.natural", 0.05),
                Map.entry("fileNameCovered.natural", 0.5), Map.entry("fileCandidates.natural", 0.1),
                Map.entry("bm25.mixed", 0.5), Map.entry("doc.natural", -3.0), Map.entry("compat", -3.0),
                Map.entry("stub", -0.2), Map.entry("platform", -3.0), Map.entry("rankInFile", -3.0));
        RepositoryRanking defaults = RepositoryRanking.wholeRepository();
        assertThat(defaults.depth()).isEqualTo(RepositoryRanking.DEFAULT_DEPTH);
        defaults.weights().forEach((name, w) -> assertThat(w).as(name).isEqualTo(nonZero.getOrDefault(name, 0.0)));
        assertThat(defaults.weights().keySet()).containsAll(nonZero.keySet());
    }

    @Test
    void theParametersAreTheKindSpecificSignalsThenTheGlobalOnesInTheTablesOrder() {
        assertThat(RepositoryRanking.PARAMETERS).startsWith("definition.symbol", "definition.natural",
                "definition.mixed", "typeDefinition.symbol").endsWith("platform", "rankInFile", "diversity");
        long perKind = Arrays.stream(RankingSignal.values()).filter(s -> s.scope() == RankingSignal.Scope.PER_KIND)
                .count();
        assertThat(RepositoryRanking.PARAMETERS).hasSize((int) (3 * perKind + RankingSignal.values().length - perKind
                - 1)).doesNotHaveDuplicates().doesNotContain("base");
        for (RankingSignal s : RankingSignal.values()) {
            assertThat(RepositoryRanking.PARAMETERS).containsAll(s.parameters());
            assertThat(RankingSignal.byId(s.id())).isSameAs(s);
            assertThat(s.measures()).isNotBlank();
            assertThat(s.origin()).isNotBlank();
        }
    }

    @Test
    void everyPathPriorIsDeclaredAndTheSlotsNumberTheScoredSignals() {
        for (String prior : PathPriors.NAMES) {
            assertThat(RankingSignal.byId(prior).scope()).isEqualTo(RankingSignal.Scope.GLOBAL);
        }
        RankingSignal[] bySlot = RankingSignal.BY_SLOT;
        assertThat(bySlot[0]).isEqualTo(RankingSignal.BASE);
        assertThat(bySlot).hasSize(RankingSignal.values().length - 1).doesNotContain(RankingSignal.DIVERSITY);
        for (int i = 0; i < bySlot.length; i++) {
            assertThat(bySlot[i].slot()).isEqualTo(i);
        }
        assertThatThrownBy(() -> RankingSignal.byId("nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown ranking signal 'nope'").hasMessageContaining("fileQueried");
    }

    @Test
    void withWeightsChangesOnlyTheNamedWeightsAndRejectsUnknownOnes() {
        RepositoryRanking tuned = RepositoryRanking.wholeRepository().withWeights(Map.of("doc.natural", -1.0));
        assertThat(tuned.weights()).containsEntry("doc.natural", -1.0).containsEntry("fileQueried.symbol", 2.0);
        assertThat(RepositoryRanking.wholeRepository().weights()).containsEntry("doc.natural", -3.0);
        assertThatThrownBy(() -> tuned.withWeights(Map.of("doc", 1.0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown ranking parameter 'doc'");
        assertThat(List.copyOf(tuned.weights().keySet())).isEqualTo(RepositoryRanking.PARAMETERS);
    }
}
