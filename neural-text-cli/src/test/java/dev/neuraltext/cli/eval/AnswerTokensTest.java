package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.eval.SpanTarget;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.SearchTimings;
import dev.neuraltext.search.TokenCount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnswerTokensTest {

    @TempDir
    Path tmp;

    /** A method at lines 1..201 of {@code path}: a signature, 199 filler lines, the closing brace. */
    private static SearchHit longMethod(String path) {
        StringBuilder text = new StringBuilder("run\nvoid run() {");
        for (int i = 0; i < 199; i++) {
            text.append("\n    step").append(i).append("();");
        }
        text.append("\n}");
        Map<String, String> m = new HashMap<>(Map.of("path", path, "startLine", "1", "endLine", "201", "symbol", "run",
                "symbolType", "method"));
        return new SearchHit(path + "#run", text.toString(), m, Map.of(), 0.9, 0.9, Map.of());
    }

    private static SearchHit shortMethod(String path, int start) {
        Map<String, String> m = Map.of("path", path, "startLine", "" + start, "endLine", "" + (start + 2), "symbol",
                "f", "symbolType", "method");
        return new SearchHit(path + "#f", "f\nvoid f() {\n    g();\n}", m, Map.of(), 0.5, 0.5, Map.of());
    }

    @Test
    void aTargetInLinesThePackingElidedIsNotReachedThere() {
        SearchHit first = longMethod("A.java");
        SearchHit second = shortMethod("B.java", 10);
        SearchResponse r = new SearchResponse(List.of(first, second), 2, false, Set.of(), false,
                SearchTimings.zero());
        // the target lies deep in A's body, in lines the packing leaves out; B's method is a target too
        List<SpanTarget> targets = List.of(new SpanTarget("A.java", 150, 152), new SpanTarget("B.java", 10, 12));

        Map<String, Integer> t = AnswerTokens.ours("zebra", r, "", targets);

        // whole chunks: A is read whole and is relevant at once
        assertThat(t.get(AnswerTokens.CHUNKS)).isGreaterThan(600);
        // packed: A is trimmed to its first lines (no line matches "zebra"), so the target is met in B, after both
        assertThat(t.get(AnswerTokens.PACKED)).isLessThan(400).isGreaterThan(TokenCount.of("void f() {"));
    }

    @Test
    void theGrepReaderPaysForTheListingAndEveryFileReadWhole() throws Exception {
        Files.writeString(tmp.resolve("a.py"), "x".repeat(4_000));
        Files.writeString(tmp.resolve("b.py"), "y".repeat(400));
        AnswerTokens tokens = new AnswerTokens();
        Map<String, Integer> reached = tokens.grep(List.of("a.py", "b.py"), tmp, "repo",
                List.of(new SpanTarget("repo/b.py", 1, 1)));
        int listing = TokenCount.of("a.py\n") + TokenCount.of("b.py\n");
        assertThat(reached.get(AnswerTokens.FILES)).isEqualTo(listing + 1_000 + 100);
        Map<String, Integer> never = tokens.grep(List.of("a.py"), tmp, "repo",
                List.of(new SpanTarget("repo/c.py", 0, 0)));
        assertThat(never).containsEntry(AnswerTokens.FILES, null);
    }

    @Test
    void countsBecomeOptionalsWithNullAsNeverReached() {
        List<Integer> counts = new ArrayList<>();
        counts.add(5);
        counts.add(null);
        assertThat(AnswerTokens.optional(counts)).hasSize(2).first().satisfies(c -> assertThat(c.getAsInt()).isEqualTo(5));
        assertThat(AnswerTokens.optional(counts).get(1)).isEmpty();
    }
}
