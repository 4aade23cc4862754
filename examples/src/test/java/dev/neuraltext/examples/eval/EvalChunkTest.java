package dev.neuraltext.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.eval.EvalDocument;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvalChunkTest {

    @Test
    void aMarkdownSectionGetsItsHeadingPathAsSectionMetadataWhileBm25KeepsTheDatasetsFields() {
        EvalDocument doc = new EvalDocument("docs/a.md#reuse", "Containers", "Call withReuse(true).",
                Map.of(EvalHarness.HEADING_PATH, "Features > Reusable containers", "path", "docs/a.md"));
        ChunkInput c = EvalHarness.chunk(doc);
        assertThat(c.metadata()).containsEntry(ChunkMetadata.SECTION, "Features > Reusable containers");
        assertThat(c.fields()).isEqualTo(doc.toChunkInput().fields());
        assertThat(c.text()).isEqualTo("Containers\nCall withReuse(true).");
    }

    @Test
    void aCodeDocumentIsTheDatasetsChunkUnchanged() {
        EvalDocument doc = new EvalDocument("A.java#A", "A", "class A {}", Map.of("className", "A"));
        assertThat(EvalHarness.chunk(doc)).isEqualTo(doc.toChunkInput());
    }
}
