package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ExtractionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainTextChunkerTest {

    @Test
    void windowsOverlapAndKnowTheirLines() {
        // 10 tokens, two per line: lines 1..5
        String text = "a1 a2\nb1 b2\nc1 c2\nd1 d2\ne1 e2\n";
        List<ChunkInput> chunks = PlainTextChunker.of(4, 2).chunk(new ExtractionResult("notes/x.txt", text,
                Map.of("path", "notes/x.txt", "language", "text"), Map.of()));
        // windows start at tokens 0, 2, 4, 6: [a1..b2], [b1..c2], [c1..d2], [d1..e2]
        assertThat(chunks).extracting(ChunkInput::id).containsExactly("notes/x.txt#1", "notes/x.txt#2",
                "notes/x.txt#3", "notes/x.txt#4");
        assertThat(chunks.get(1).text()).isEqualTo("x.txt\nb1 b2\nc1 c2");
        assertThat(chunks.get(1).metadata()).containsEntry("startLine", "2").containsEntry("endLine", "3")
                .containsEntry("symbolType", "text").containsEntry("symbol", "x.txt").containsEntry("type", "doc");
        assertThat(chunks.get(3).metadata()).containsEntry("startLine", "4").containsEntry("endLine", "5");
    }

    @Test
    void codeLanguagesAreTypeCodeAndBlankTextHasNoChunks() {
        List<ChunkInput> chunks = PlainTextChunker.create().chunk(new ExtractionResult("pom.xml", "<project/>",
                Map.of("language", "xml"), Map.of()));
        assertThat(chunks).singleElement().satisfies(c -> assertThat(c.metadata()).containsEntry("type", "code")
                .containsEntry("path", "pom.xml").containsEntry("language", "xml"));
        assertThat(PlainTextChunker.create().chunk(ExtractionResult.of("empty.txt", " \n\t "))).isEmpty();
    }

    @Test
    void rejectsBadWindows() {
        assertThatThrownBy(() -> PlainTextChunker.of(0, 0)).hasMessageContaining("window must be >= 1 token, got 0");
        assertThatThrownBy(() -> PlainTextChunker.of(10, 10)).hasMessageContaining("= [0, 9], got 10");
    }
}
