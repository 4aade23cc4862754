package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ExtractionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MarkdownChunkerTest {

    private final MarkdownChunker chunker = MarkdownChunker.create();

    @Test
    void sectionsByHeadingWithHeadingPathAndFrontMatter() {
        List<ChunkInput> chunks = Fixtures.chunk(chunker, "markdown/retry-guide.md", "docs/retry-guide.md");
        assertThat(chunks).extracting(ChunkInput::id).containsExactly(
                "docs/retry-guide.md#_preamble",
                "docs/retry-guide.md#Retries",
                "docs/retry-guide.md#Retries > Exponential backoff",
                "docs/retry-guide.md#Retries > Jitter",
                "docs/retry-guide.md#Retries~2");

        ChunkInput backoff = chunks.get(2);
        assertThat(backoff.text()).isEqualTo("""
                Retries > Exponential backoff
                ## Exponential backoff

                Wait `base * 2^attempt` milliseconds between attempts.

                ```java
                # not a heading inside a fence
                int delay = base << attempt;
                ```""");
        // front matter occupies lines 1-6, so "## Exponential backoff" is line 13 of the file
        assertThat(backoff.metadata()).containsEntry("symbol", "Exponential backoff")
                .containsEntry("section", "Retries > Exponential backoff").containsEntry("symbolType", "section")
                .containsEntry("startLine", "13").containsEntry("endLine", "20").containsEntry("type", "doc")
                .containsEntry("language", "markdown").containsEntry("title", "Retry guide")
                .containsEntry("domain", "networking").containsEntry("path", "docs/retry-guide.md");
        assertThat(backoff.listMetadata()).containsEntry("tags", List.of("http", "retry"));
        assertThat(backoff.fields()).containsEntry("name", "Retries > Exponential backoff");

        ChunkInput preamble = chunks.get(0);
        assertThat(preamble.metadata()).containsEntry("symbol", "Retry guide").containsEntry("startLine", "7")
                .containsEntry("endLine", "7");
        // front matter "type: note" must not override the project-wide type = doc
        assertThat(preamble.metadata()).containsEntry("type", "doc");
        assertThat(chunks.get(4).text()).contains("same title");
    }

    @Test
    void longSectionIsSplitIntoOverlappingParts() {
        StringBuilder md = new StringBuilder("# Long\n\n");
        for (int i = 1; i <= 40; i++) {
            md.append("Line number ").append(i).append(" of a long section with filler words.\n");
        }
        List<ChunkInput> chunks = MarkdownChunker.of(500, 100).chunk(ExtractionResult.of("long.md", md.toString()));
        assertThat(chunks.size()).isGreaterThan(3);
        assertThat(chunks.get(0).id()).isEqualTo("long.md#Long");
        assertThat(chunks.get(1).id()).isEqualTo("long.md#Long#part2");
        for (ChunkInput c : chunks) {
            assertThat(c.text()).startsWith("Long\n");
            assertThat(c.text().length()).isLessThanOrEqualTo(500 + "Long\n".length());
        }
        // consecutive parts overlap: the last line of part 1 is repeated in part 2
        int end1 = Integer.parseInt(chunks.get(0).metadata().get("endLine"));
        int start2 = Integer.parseInt(chunks.get(1).metadata().get("startLine"));
        assertThat(start2).isLessThanOrEqualTo(end1).isGreaterThan(1);
        assertThat(chunks.get(chunks.size() - 1).text()).contains("Line number 40 ");
    }

    @Test
    void malformedFrontMatterIsIgnoredNotFatal() {
        String md = "---\ntags: [unclosed\n---\n# Title\nBody\n";
        List<ChunkInput> chunks = chunker.chunk(ExtractionResult.of("bad.md", md));
        assertThat(chunks).isNotEmpty();
        assertThat(chunks.get(chunks.size() - 1).text()).contains("Body");
        assertThat(chunks).allSatisfy(c -> assertThat(c.listMetadata()).isEmpty());
    }

    @Test
    void leadingThematicBreakIsNotFrontMatter() {
        String md = "---\nJust a rule above some prose.\n---\n# Title\nBody\n";
        MarkdownChunker.FrontMatter fm = MarkdownChunker.frontMatter("x.md", md);
        assertThat(fm.body()).isEqualTo(md);
        // CommonMark reads "text" + "---" as a setext heading: the prose becomes a section title, not lost
        assertThat(chunker.chunk(ExtractionResult.of("x.md", md))).extracting(c -> c.metadata().get("symbol"))
                .contains("Just a rule above some prose.", "Title");
    }

    @Test
    void frontMatterScalarsDatesAndNestedMaps() {
        MarkdownChunker.FrontMatter fm = MarkdownChunker.frontMatter("x.md",
                "---\ndate: 2024-01-31\nauthor:\n  name: Ada\nversion: 3\ntags: []\n---\nbody");
        assertThat(fm.metadata()).isEqualTo(Map.of("date", "2024-01-31", "author.name", "Ada", "version", "3"));
        assertThat(fm.listMetadata()).isEqualTo(Map.of("tags", List.of()));
        assertThat(fm.body()).isEqualTo("body");
        assertThat(fm.bodyLineOffset()).isEqualTo(7);
    }
}
