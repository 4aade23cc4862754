package dev.neuraltext.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.search.PackedAnswer.Excerpt;
import dev.neuraltext.search.PackedAnswer.PackedHit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnswerPackerTest {

    /** A chunk as the chunkers write it: a title line, then the lines {@code start..start+body.size()-1}. */
    private static SearchHit hit(String path, String symbol, int start, List<String> body) {
        Map<String, String> m = new HashMap<>();
        m.put(ChunkMetadata.PATH, path);
        m.put(ChunkMetadata.SYMBOL, symbol);
        m.put(ChunkMetadata.SYMBOL_TYPE, "method");
        m.put(ChunkMetadata.START_LINE, Integer.toString(start));
        m.put(ChunkMetadata.END_LINE, Integer.toString(start + body.size() - 1));
        return new SearchHit(path + "#" + symbol, symbol + "\n" + String.join("\n", body), m, Map.of(), 0.5, 0.5,
                Map.of());
    }

    private static SearchResponse response(int above, SearchHit... hits) {
        return new SearchResponse(List.of(hits), above, false, Set.of(), false, SearchTimings.zero());
    }

    private static List<String> shortBody(String name) {
        return List.of("void " + name + "() {", "    run();", "}");
    }

    /** A long method: a doc comment, a signature, 200 filler lines and one line about retries at line 150. */
    private static List<String> longMethod() {
        List<String> body = new ArrayList<>();
        body.add("/**");
        body.add(" * Sends the request.");
        body.add(" */");
        body.add("public Response send(Request request) {");
        for (int i = 0; i < 200; i++) {
            body.add(i == 120 ? "    int delay = backoff.retryDelay(attempt);" : "    step" + i + "(request);");
        }
        body.add("}");
        return body;
    }

    @Test
    void shortHitsAreShownWholeTheFirstOfEachFileFirst() {
        SearchHit a1 = hit("A.java", "A.one", 10, shortBody("one"));
        SearchHit a2 = hit("A.java", "A.two", 20, shortBody("two"));
        SearchHit b1 = hit("B.java", "B.one", 5, shortBody("three"));
        PackedAnswer p = AnswerPacker.ofBudget(2_000).pack("run", response(3, a1, a2, b1));

        assertThat(p.hits()).extracting(PackedHit::rank).containsExactly(1, 3, 2);
        assertThat(p.hits()).noneMatch(PackedHit::trimmed);
        PackedHit first = p.hits().get(0);
        assertThat(first.text()).isEqualTo("A.java:10-12  A.one (method)  score 0.50\nvoid one() {\n    run();\n}");
        assertThat(first.tokens()).isEqualTo(TokenCount.of(first.text()));
        assertThat(p.tokens()).isEqualTo(p.hits().stream().mapToInt(PackedHit::tokens).sum());
        assertThat(p.notShown()).isZero();
        assertThat(p.summary()).isEqualTo("3 results in " + p.tokens() + " tokens (budget 2,000), 3 above threshold");
    }

    @Test
    void aLongDefinitionKeepsItsDocSignatureAndTheMatchingLinesWithTheirFileLineNumbers() {
        // the doc comment sits on lines 97-99 above the declaration at line 100, as the Java chunker writes it
        List<String> body = longMethod();
        SearchHit h = hit("Client.java", "Client.send", 97, body);
        PackedAnswer p = AnswerPacker.ofBudget(2_000).pack("how is the retry delay computed", response(1, h));

        PackedHit only = p.hits().get(0);
        assertThat(only.trimmed()).isTrue();
        assertThat(only.tokens()).isLessThanOrEqualTo(500);
        String text = only.text();
        assertThat(text).startsWith("Client.java:97-301  Client.send (method)  score 0.50\n/**\n * Sends the request.\n */\n"
                + "public Response send(Request request) {\n");
        assertThat(text).contains("    int delay = backoff.retryDelay(attempt);");
        // the matching line is body index 124: file line 97 + 124 = 221, with a line of context either side
        Excerpt match = only.excerpts().stream().filter(e -> e.lines().stream().anyMatch(l -> l.contains("retryDelay")))
                .findFirst().orElseThrow();
        int at = match.lines().indexOf("    int delay = backoff.retryDelay(attempt);");
        assertThat(match.startLine() + at).isEqualTo(221);
        assertThat(text).contains("… lines 101-219 not shown").contains("… lines 223-301 not shown");
        assertThat(only.elidedLines()).isEqualTo(body.size() - only.excerpts().stream().mapToInt(e -> e.lines().size())
                .sum());
    }

    @Test
    void withoutAMatchingLineTheBodyStartIsKept() {
        SearchHit h = hit("Client.java", "Client.send", 97, longMethod());
        PackedHit only = AnswerPacker.ofBudget(1_000).pack("zebra", response(1, h)).hits().get(0);
        assertThat(only.text()).contains("    step0(request);").doesNotContain("retryDelay");
        assertThat(only.tokens()).isLessThanOrEqualTo(250);
    }

    @Test
    void packingStopsAtTheBudgetAndSaysWhatTheRestCosts() {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            hits.add(hit("F" + i + ".java", "F" + i + ".send", 97, longMethod()));
        }
        SearchResponse r = new SearchResponse(hits, 20, false, Set.of(), false, SearchTimings.zero());
        PackedAnswer p = AnswerPacker.ofBudget(500).pack("retry delay", r);

        assertThat(p.tokens()).isLessThanOrEqualTo(500);
        assertThat(p.hits()).hasSizeBetween(2, 11);
        assertThat(p.notShown()).isEqualTo(20 - p.hits().size());
        assertThat(p.notShownFetched()).isEqualTo(12 - p.hits().size());
        int wholeTokens = TokenCount.of(AnswerPacker.render(AnswerPacker.header(hits.get(11), true),
                AnswerPacker.Lines.of(hits.get(11)).all(), AnswerPacker.Lines.of(hits.get(11)).size()));
        assertThat(p.notShownTokens()).isEqualTo(p.notShownFetched() * wholeTokens);
        assertThat(p.summary()).contains(p.notShown() + " not shown, the " + p.notShownFetched() + " returned would cost")
                .contains("search again with a larger budget");
    }

    @Test
    void theFirstHitIsShownInItsShortestFormEvenBeyondTheBudget() {
        List<String> body = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            body.add("// " + "x".repeat(230));
        }
        body.add("void f() {");
        for (int i = 0; i < 50; i++) {
            body.add("  g" + i + "();");
        }
        body.add("}");
        PackedAnswer p = AnswerPacker.ofBudget(100).pack("g", response(2, hit("A.c", "f", 1, body),
                hit("B.c", "g", 1, shortBody("g"))));
        assertThat(p.hits()).hasSize(1);
        assertThat(p.tokens()).isGreaterThan(100);
        assertThat(p.hits().get(0).text()).contains("void f() {");
        assertThat(p.notShown()).isEqualTo(1);
    }

    @Test
    void linesThatCannotBePlacedAreCountedInsteadOfNumbered() {
        // a file's header chunk: fewer lines than its span (the definitions between them are chunks of their own)
        Map<String, String> m = Map.of(ChunkMetadata.PATH, "mod.py", ChunkMetadata.START_LINE, "1",
                ChunkMetadata.END_LINE, "900");
        List<String> body = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            body.add(i == 200 ? "TIMEOUT_SECONDS = 30" : "import m" + i);
        }
        SearchHit h = new SearchHit("mod.py", "mod.py\n" + String.join("\n", body), m, Map.of(), 0.5, 0.5, Map.of());
        PackedHit only = AnswerPacker.ofBudget(2_000).pack("timeout seconds", response(1, h)).hits().get(0);
        assertThat(only.excerpts()).allMatch(e -> e.startLine() == 0);
        assertThat(only.text()).contains("TIMEOUT_SECONDS = 30").containsPattern("… \\d+ lines not shown")
                .doesNotContain("lines 1-");
    }

    @Test
    void hitsBelowTheThresholdAreShownMarked() {
        PackedAnswer p = AnswerPacker.ofBudget(2_000).pack("x", response(0, hit("A.java", "a", 1, shortBody("a")),
                hit("B.java", "b", 1, shortBody("b"))));
        assertThat(p.hits()).hasSize(2);
        assertThat(p.aboveThreshold()).isZero();
        assertThat(p.hits().get(0).header()).isEqualTo("A.java:1-3  a (method)  score 0.50  [below threshold]");
    }

    @Test
    void aBudgetBelowTheMinimumIsRefusedNamingIt() {
        assertThatThrownBy(() -> AnswerPacker.ofBudget(99)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("token budget must be at least 100, got 99");
    }

    @Test
    void longLinesAreClippedWithTheirLength() {
        String line = "x".repeat(1_000);
        assertThat(AnswerPacker.clip(line)).startsWith("x".repeat(240) + "…").endsWith("[1,000 characters]");
    }
}
