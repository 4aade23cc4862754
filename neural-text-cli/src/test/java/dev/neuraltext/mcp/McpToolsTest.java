package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.SearchTimings;
import dev.neuraltext.store.DenseCoverage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpToolsTest {

    @TempDir
    Path tmp;

    @Test
    void readablePathsStayInsideTheRootAlsoThroughSymbolicLinks() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Files.writeString(Files.createDirectories(root.resolve("src")).resolve("A.java"), "class A {}\n");
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "secret\n");
        Files.createSymbolicLink(root.resolve("src/leak.txt"), secret);
        Files.createSymbolicLink(root.resolve("src/alias.java"), root.resolve("src/A.java"));

        assertThat(McpTools.RootFiles.resolve(root, "src/A.java")).isEqualTo(root.resolve("src/A.java").toRealPath());
        assertThat(McpTools.RootFiles.resolve(root, "./src/../src/A.java")).endsWith(Path.of("src/A.java"));
        assertThat(McpTools.RootFiles.resolve(root, "src/alias.java")).as("a link inside the root").endsWith(
                Path.of("src/A.java"));
        assertThatThrownBy(() -> McpTools.RootFiles.resolve(root, "../secret.txt"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the indexed folder");
        assertThatThrownBy(() -> McpTools.RootFiles.resolve(root, secret.toString()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the indexed folder");
        assertThatThrownBy(() -> McpTools.RootFiles.resolve(root, "src/leak.txt"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("symbolic link leads outside");
        assertThatThrownBy(() -> McpTools.RootFiles.resolve(root, "src"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a file");
        assertThatThrownBy(() -> McpTools.RootFiles.resolve(root, "src/B.java"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no file 'src/B.java'");
        assertThatThrownBy(() -> McpTools.RootFiles.resolve(root, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("`path` is empty");
    }

    @Test
    void pathArgumentsAreGlobsReadAsIncludeReadsThem() {
        Predicate<String> prefix = McpTools.pathMatcher("./src/main");
        assertThat(prefix).accepts("src/main/A.java").rejects("test/src/main/A.java", "docs/a.md", "src/mainly/A.java");
        // one syntax with --include: a pattern without a slash matches a name at any depth
        assertThat(McpTools.pathMatcher("*.md")).accepts("README.md", "docs/guide.md").rejects("docs/guide.java");
        assertThat(McpTools.pathMatcher("docs/*.md")).accepts("docs/guide.md").rejects("x/docs/guide.md");
        Predicate<String> glob = McpTools.pathMatcher("**/*.md");
        assertThat(glob).accepts("docs/guide.md", "a/b/c.md").rejects("docs/guide.java");
        assertThat(McpTools.pathMatcher("src/*/A.java")).accepts("src/main/A.java").rejects("src/main/x/A.java");
        assertThatThrownBy(() -> McpTools.pathMatcher("src/[")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'src/[' is not a valid glob");
    }

    private static SearchHit hit(String path, int start, int end, String symbol, double score) {
        return new SearchHit(path + "#" + symbol, "header\n  line one of " + symbol + "\n\n  line two\n  line three\n",
                Map.of("path", path, "startLine", "" + start, "endLine", "" + end, "symbol", symbol,
                        "symbolType", "method"), Map.of(), score, score, Map.of());
    }

    private static LiveIndex.Status status(LiveIndex.Phase phase, DenseCoverage coverage) {
        return new LiveIndex.Status(Path.of("/r"), Path.of("/r/.neural-text"), true, phase, false, 3, 10, 3,
                coverage.chunks(),
                Map.of(), Set.of(Leg.BM25, Leg.DENSE), coverage, "m", true, "", null, null, "", Map.of(), "");
    }

    private static SearchResponse response(List<SearchHit> hits, int above) {
        Duration z = Duration.ZERO;
        return new SearchResponse(hits, above, false, Set.of(Leg.BM25, Leg.DENSE), false,
                new SearchTimings(z, z, z, z));
    }

    @Test
    void anAnswerGivesLocationsTheExtensionLineAndTheStateOfTheIndex() {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            hits.add(hit("src/A" + i + ".java", 10 + i, 20 + i, "A" + i + ".run", 0.9 - i * 0.01));
        }
        SearchAnswer a = SearchAnswer.of("run", 8, response(hits, 16),
                status(LiveIndex.Phase.INDEXING, new DenseCoverage(100, 40)), Set.of(), 0);
        assertThat(a.text()).startsWith("1. src/A0.java:10-20  A0.run (method)  score 0.90\n   line one of A0.run\n"
                + "   line two\n   line three\n2. src/A1.java:11-21");
        assertThat(a.text()).contains("8 results, 16 above threshold: call again with limit 16 for the rest.")
                .contains("Note: the index is still being built (3 of 10 files so far)")
                .contains("Note: dense vectors cover 40 of 100 chunks (40%) of the index");
        assertThat(a.structured()).containsEntry("returned", 8).containsEntry("aboveThreshold", 16)
                .containsEntry("indexComplete", false);
    }

    @Test
    void nothingAboveTheThresholdIsSaidPlainlyWithTheBestFewMarkedBelowIt() {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            hits.add(hit("src/B" + i + ".java", 1, 2, "B" + i, 0.3));
        }
        SearchAnswer a = SearchAnswer.of("kubernetes", 8, response(hits, 0),
                status(LiveIndex.Phase.READY, new DenseCoverage(10, 10)), Set.of(), 0);
        assertThat(a.text()).startsWith("No result above the relevance threshold: what you look for is probably not in "
                + "this index. The best 3, all below the threshold:\n1. src/B0.java:1-2  B0 (method)  score 0.30  "
                + "[below threshold]");
        assertThat(a.text()).doesNotContain("src/B3.java").contains("3 results, 0 above threshold.")
                .doesNotContain("Note:");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) a.structured().get("hits");
        assertThat(rows).hasSize(3).allSatisfy(r -> assertThat(r).containsEntry("aboveThreshold", false));
    }

    @Test
    void aPackedAnswerShowsEachHitsCodeWithinTheBudgetAndWhatTheRestCosts() {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            StringBuilder body = new StringBuilder("A" + i + ".run\nvoid run() {");
            for (int k = 0; k < 60; k++) {
                body.append(k == 30 ? "\n    retryDelay(attempt);" : "\n    step" + k + "();");
            }
            body.append("\n}");
            hits.add(new SearchHit("A" + i, body.toString(), Map.of("path", "src/A" + i + ".java", "startLine", "10",
                    "endLine", "71", "symbol", "A" + i + ".run", "symbolType", "method"), Map.of(), 0.9 - i * 0.01,
                    0.9 - i * 0.01, Map.of()));
        }
        SearchAnswer a = SearchAnswer.packed("retry delay", response(hits, 16),
                status(LiveIndex.Phase.READY, new DenseCoverage(100, 100)), Set.of(),
                new Freshness(0, true, false, 0, 0, 0, 0), dev.neuraltext.search.AnswerPacker.ofBudget(150));
        assertThat(a.text()).startsWith("1. src/A0.java:10-71  A0.run (method)  score 0.90\nvoid run() {\n"
                + "… lines 11-39 not shown\n    step29();\n    retryDelay(attempt);\n    step31();\n"
                + "… lines 43-71 not shown\n\n2. src/A1.java:10-71");
        @SuppressWarnings("unchecked")
        Map<String, Object> budget = (Map<String, Object>) a.structured().get("budget");
        assertThat(budget).containsEntry("tokens", 150);
        assertThat((int) budget.get("used")).isLessThanOrEqualTo(150);
        int shown = (int) budget.get("shown");
        assertThat(shown).isBetween(2, 7);
        assertThat(budget).containsEntry("notShown", 16 - shown).containsEntry("notShownReturned", 8 - shown);
        assertThat(a.text()).contains((16 - shown) + " not shown, the " + (8 - shown) + " returned would cost");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) a.structured().get("hits");
        assertThat(rows).hasSize(shown);
        assertThat(rows.get(0)).containsEntry("kind", "method").containsEntry("trimmed", true)
                .containsEntry("lines", List.of(List.of(10, 10), List.of(40, 42))).doesNotContainKey("symbolType");
    }
}
