package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.internal.ControlChars;
import dev.neuraltext.path.PathGlob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ingest side of issue 12: deep nesting, bad front matter, bad globs, non-UTF-8 files, huge files. */
class HostileInputTest {

    @TempDir
    Path tmp;

    @Test
    void javaNestedBeyondAnyStackFallsBackToPlainTextAndModerateNestingStillParses() {
        String deep = "class D { int f() { return " + "(".repeat(60_000) + "1" + ")".repeat(60_000) + "; } }";
        List<ChunkInput> chunks = new JavaSourceChunker().chunk(ExtractionResult.of("D.java", deep));
        assertThat(chunks).isNotEmpty().allSatisfy(c -> {
            assertThat(c.metadata()).containsEntry(ChunkMetadata.LANGUAGE, "java");
            assertThat(c.metadata().get(ChunkMetadata.SYMBOL_TYPE)).isNotEqualTo(ChunkMetadata.SYMBOL_TYPE_METHOD);
        });
        // 600 levels overflowed the default 1 MiB stack; the parser thread's stack takes them
        String moderate = "class D { int f() { return " + "(".repeat(600) + "1" + ")".repeat(600) + "; } }";
        assertThat(new JavaSourceChunker().chunk(ExtractionResult.of("D.java", moderate)))
                .extracting(c -> c.metadata().get(ChunkMetadata.SYMBOL)).contains("D.f");
    }

    @Test
    void malformedFrontMatterIsKeptOnceAsTextAndNeverBecomesAHeading() {
        String md = "---\ntitle: [unclosed\n" + "key: value: other: ".repeat(50) + "\n---\n"
                + "### One\n\nfirst\n\n### Two\n\nsecond\n";
        List<ChunkInput> chunks = MarkdownChunker.create().chunk(ExtractionResult.of("bad.md", md));
        assertThat(chunks).extracting(ChunkInput::id).containsExactly("bad.md#_frontmatter", "bad.md#One",
                "bad.md#Two");
        assertThat(chunks.get(0).text()).contains("title: [unclosed");
        assertThat(chunks.subList(1, 3)).allSatisfy(c -> assertThat(c.text()).doesNotContain("unclosed"));
        assertThat(chunks.get(1).metadata()).containsEntry(ChunkMetadata.START_LINE, "5");
    }

    @Test
    void headingsAreCutSoThatHeadingPathsStayBounded() {
        String longHeading = "word ".repeat(2_000);
        String md = "# " + longHeading + "\n\n## " + longHeading + "\n\ntext\n";
        List<ChunkInput> chunks = MarkdownChunker.create().chunk(ExtractionResult.of("h.md", md));
        assertThat(chunks).allSatisfy(c -> assertThat(c.metadata().get(ChunkMetadata.SECTION).length())
                .isLessThanOrEqualTo(2 * MarkdownChunker.MAX_HEADING_CHARS + 3));
    }

    @Test
    void globListsSplitOnlyOnCommasOutsideBraces() {
        assertThat(DirectoryIngestor.splitGlobList("*.{java,md},docs/**")).containsExactly("*.{java,md}", "docs/**");
        assertThat(DirectoryIngestor.splitGlobList("{a,{b,c}}, d ,,")).containsExactly("{a,{b,c}}", "d");
        assertThat(PathGlob.of("*.{java,md}").matches("src/A.java")).isTrue();
        assertThat(PathGlob.of("*.{java,md}").matches("README.md")).isTrue();
        assertThat(PathGlob.of("*.{java,md}").matches("notes.txt")).isFalse();
    }

    @Test
    void invalidGlobsAreRejectedNamingTheGlobNotTheRegex() {
        assertThatThrownBy(() -> PathGlob.of("[")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'['").hasMessageContaining("unclosed");
        assertThatThrownBy(() -> PathGlob.of("[z-a]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid glob pattern '[z-a]': illegal character range");
        assertThatThrownBy(() -> DirectoryIngestor.builder(tmp).include("ok/*", "[z-a]"))
                .hasMessageContaining("'[z-a]'");
        assertThat(PathGlob.of("[[]x]").matches("[x]")).isTrue();
    }

    @Test
    void nonUtf8FilesAreReadAsIso88591AndUtf8StaysUtf8() {
        assertThat(DirectoryIngestor.decode("l.txt", new byte[] {'C', 'a', 'f', (byte) 0xE9})).isEqualTo("Café");
        assertThat(DirectoryIngestor.decode("u.txt", "\uFEFFCafé".getBytes(StandardCharsets.UTF_8))).isEqualTo("Café");
    }

    @Test
    void controlCharactersBecomeVisibleEscapes() {
        assertThat(ControlChars.escape("a\u001b]0;x\u0007b\n\tc\u009b\u007f")).isEqualTo("a\\x1b]0;x\\x07b\n\tc\\x9b\\x7f");
        assertThat(ControlChars.escapeLine("a\nb\tc")).isEqualTo("a\\x0ab\\x09c");
        assertThat(ControlChars.escape("plain Größe 日本")).isEqualTo("plain Größe 日本");
    }

    @Test
    void progressMovesByChunksInsideOneLargeFile() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("big"));
        Files.writeString(root.resolve("huge.txt"), "retry backoff jitter timeout ".repeat(2_000));
        List<IndexUpdate.Progress> events = new ArrayList<>();
        IndexUpdate update = IncrementalIndexer.builder(DirectoryIngestor.builder(root).build()).batchSize(5)
                .progress(events::add).build().update(IndexManifest.empty(""), new IncrementalIndexerTest.RecordingSink());
        assertThat(update.chunksUpserted()).isGreaterThan(20);
        List<IndexUpdate.Progress> inside = events.stream().filter(p -> p.filesDone() == 0).toList();
        assertThat(inside).hasSizeGreaterThanOrEqualTo(4);
        assertThat(inside).extracting(IndexUpdate.Progress::chunksDone).isSorted().doesNotHaveDuplicates();
        assertThat(events.get(events.size() - 1).filesDone()).isEqualTo(1);
    }
}
