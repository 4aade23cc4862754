package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bounded pieces of the server's answers: line ranges, caps, escapes and freshness notes. */
class McpLimitsTest {

    @TempDir
    Path tmp;

    @Test
    void lineRangesCountLinesAsReadAllLinesDoes() throws Exception {
        Path f = tmp.resolve("f.txt");
        Files.writeString(f, "one\r\ntwo\rthree\nfour");
        FileLines.Read r = FileLines.read(f, 2, 3, 1_000);
        assertThat(r.text()).isEqualTo("two\nthree");
        assertThat(r.totalLines()).isEqualTo(Files.readAllLines(f).size()).isEqualTo(4);
        assertThat(r.lastLine()).isEqualTo(3);
        assertThat(r.capped()).isFalse();
        FileLines.Read end = FileLines.read(f, 3, 400, 1_000);
        assertThat(end.text()).isEqualTo("three\nfour");
        assertThat(end.lastLine()).isEqualTo(4);
        Files.writeString(f, "");
        assertThat(FileLines.read(f, 1, 1, 1_000).totalLines()).isZero();
        Files.writeString(f, "a\n\nb\n");
        assertThat(FileLines.read(f, 1, 3, 1_000).text()).isEqualTo("a\n\nb");
        assertThat(FileLines.read(f, 1, 3, 1_000).totalLines()).isEqualTo(3);
    }

    @Test
    void theCapStopsAtTheLastWholeLineOrCutsALineLongerThanIt() throws Exception {
        Path f = tmp.resolve("g.txt");
        Files.writeString(f, "1234567890\n".repeat(100));
        FileLines.Read r = FileLines.read(f, 1, 100, 55);
        assertThat(r.capped()).isTrue();
        assertThat(r.lineCut()).isFalse();
        assertThat(r.lastLine()).isEqualTo(5); // 5 lines of 10 and 4 separators: 54 characters
        assertThat(r.text()).hasSize(54);
        assertThat(r.totalLines()).isEqualTo(100);
        Files.writeString(f, "x".repeat(1_000) + "\nshort\n");
        FileLines.Read cut = FileLines.read(f, 1, 2, 100);
        assertThat(cut.lineCut()).isTrue();
        assertThat(cut.text()).hasSize(100);
        assertThat(cut.lastLine()).isEqualTo(1);
    }

    @Test
    void controlCharactersInMessagesAreWrittenAsEscapes() {
        assertThat(McpTools.visible("a\u0000b\nc\td\u007f")).isEqualTo("a\\u0000b\nc\td\\u007f");
    }

    @Test
    void clippingSaysHowLongTheTextWas() {
        assertThat(SearchAnswer.clip("abc", 5)).isEqualTo("abc");
        assertThat(SearchAnswer.clip("x".repeat(1_000), 10)).isEqualTo("xxxxxxxxxx… [1,000 characters in all]");
    }

    @Test
    void freshnessNotesSayWhyResultsMayBeOld() {
        assertThat(new Freshness(2, true, false, 0, 0, 0, 2_000).note()).isEmpty();
        assertThat(new Freshness(0, false, true, 12, 40, 5, 2_000).note()).get().asString()
                .contains("update of the index is running (12 of 40 changed files re-indexed)");
        assertThat(new Freshness(0, false, false, 0, 0, 800, 2_000).note()).get().asString()
                .contains("last checked for changes 0.8 s ago (at most once every 2.0 s)");
    }
}
