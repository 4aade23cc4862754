package dev.neuraltext.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.eval.Qrels;
import dev.neuraltext.fusion.LegResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExtraLegsTest {

    private static EvalDataset dataset() {
        List<EvalDocument> docs = List.of(
                new EvalDocument("src/Clock.java#Clock.tick()", "tick", "advance the clock hand by one second",
                        Map.of()),
                new EvalDocument("src/Clock.java#Clock.reset()", "reset", "set the clock hand back to midnight",
                        Map.of()),
                new EvalDocument("src/Bell.java#Bell.ring()", "ring", "ring the bell at midnight", Map.of()),
                new EvalDocument("notes.txt", "notes", "nothing about time", Map.of()));
        List<EvalQuery> queries = List.of(new EvalQuery("q", "clock", Map.of()));
        return EvalDataset.of("t", docs, queries, Qrels.of(Map.of("q", Map.of("src/Bell.java#Bell.ring()", 1))));
    }

    @Test
    void aChunksFileIsItsPathElseItsIdBeforeTheHash() {
        assertThat(ExtraLegs.fileOf(ChunkInput.of("a/B.java#B.c()", "x"))).isEqualTo("a/B.java");
        assertThat(ExtraLegs.fileOf(ChunkInput.of("plain", "x"))).isEqualTo("plain");
        assertThat(ExtraLegs.fileOf(ChunkInput.of("x#y", "x", Map.of(ChunkMetadata.PATH, "p/Q.md"))))
                .isEqualTo("p/Q.md");
    }

    @Test
    void fileLevelBm25RanksFilesByAllTheirChunks() {
        ExtraLegs extra = new ExtraLegs(dataset());
        List<LegResult> files = extra.fileBm25("clock hand midnight");
        assertThat(files).isNotEmpty();
        assertThat(files.get(0).id()).isEqualTo("src/Clock.java");
        assertThat(files).extracting(LegResult::id).doesNotContain("src/Clock.java#Clock.tick()");
        assertThat(extra.files()).containsEntry("src/Clock.java#Clock.reset()", "src/Clock.java");
    }

    @Test
    void feedbackAddsTermsOfTheTopChunksThatTheQueryLacks() {
        ExtraLegs extra = new ExtraLegs(dataset());
        String expanded = extra.expanded("clock", 2, 20);
        assertThat(expanded).startsWith("clock ").contains("hand", "midnight");
        assertThat(expanded.split(" ")).doesNotHaveDuplicates();
        assertThat(extra.expanded("clock", 2, 3).split(" ")).hasSize(4);
        // "midnight" comes only through feedback, so the bell now matches
        assertThat(extra.feedbackBm25("clock", 2, 20)).extracting(LegResult::id)
                .contains("src/Bell.java#Bell.ring()");
        assertThat(extra.feedbackBm25("clock", 2, 0)).extracting(LegResult::id)
                .doesNotContain("src/Bell.java#Bell.ring()");
    }
}
