package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.store.InMemoryCaseStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DenseTextTest {

    private static final String BODY = String.join("\n", "public static boolean isBlank(CharSequence cs) {",
            "    int a = 1;", "    int b = 2;", "    int c = 3;", "    int d = 4;", "    int e = 5;", "    int f = 6;",
            "    int g = 7;", "    int h = 8;", "    int i = 9;", "    int j = 10;", "    int k = 11;", "    int l = 12;",
            "    return true;", "}");

    private static ChunkInput code() {
        return new ChunkInput("m1", BODY, Map.of(ChunkMetadata.PATH, "src/main/java/org/x/StringUtils.java",
                ChunkMetadata.CLASS_NAME, "StringUtils", ChunkMetadata.SYMBOL, "isBlank",
                ChunkMetadata.SIGNATURE, "isBlank(CharSequence)"), Map.of(), Map.of());
    }

    @Test
    void chunkTextIsTheTextAsItIs() {
        assertThat(DenseText.CHUNK_TEXT.apply(code())).isEqualTo(BODY);
    }

    @Test
    void codeHeaderSplitsFileClassSymbolAndSignatureIntoWords() {
        assertThat(DenseText.HEADER.apply(code())).isEqualTo("file: String Utils; class: String Utils; symbol: is Blank; "
                + "signature: is Blank(Char Sequence)\n" + BODY);
    }

    @Test
    void aTypeChunkDoesNotRepeatItsNameAsClass() {
        ChunkInput type = new ChunkInput("t", "class A {}", Map.of(ChunkMetadata.CLASS_NAME, "RetryPolicy",
                ChunkMetadata.SYMBOL, "RetryPolicy"), Map.of(), Map.of());
        assertThat(DenseText.HEADER.apply(type)).isEqualTo("symbol: Retry Policy\nclass A {}");
    }

    @Test
    void markdownHeaderIsTheHeadingPath() {
        ChunkInput doc = new ChunkInput("d", "Run the container once.", Map.of(ChunkMetadata.SECTION,
                "Guide > Reusable containers", ChunkMetadata.SYMBOL, "Reusable containers"), Map.of(), Map.of());
        assertThat(DenseText.HEADER.apply(doc)).isEqualTo("Guide > Reusable containers\nRun the container once.");
    }

    @Test
    void headKeepsTheFirstLinesOfLongBodiesOnly() {
        String shaped = DenseText.HEADER_HEAD.apply(code());
        assertThat(shaped.split("\n")).hasSize(1 + DenseText.HEAD_LINES);
        assertThat(shaped).contains("int k = 11;").doesNotContain("int l = 12;").doesNotContain("return true;");
        ChunkInput shortOne = new ChunkInput("s", "one line", Map.of(), Map.of(), Map.of());
        assertThat(DenseText.HEADER_HEAD.apply(shortOne)).isEqualTo("one line"); // no metadata: no header
    }

    @Test
    void byIdNamesTheValueWhenUnknown() {
        assertThat(DenseText.byId("Header-Head")).isSameAs(DenseText.HEADER_HEAD);
        assertThatThrownBy(() -> DenseText.byId("summary")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'summary'").hasMessageContaining("header-head");
        assertThatThrownBy(() -> DenseText.HEADER.apply(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theRetrieverEmbedsTheShapedTextWhileBm25KeepsTheChunkAndTheFingerprintSaysWhich() {
        HybridCaseRetrieverTest.TableEmbedder embedder = new HybridCaseRetrieverTest.TableEmbedder(2);
        HybridCaseRetriever plain = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(embedder).build();
        HybridCaseRetriever shaped = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(embedder)
                .denseText(DenseText.HEADER).build();
        shaped.index(List.of(code()));
        assertThat(embedder.calls.get(0)).containsExactly(DenseText.HEADER.apply(code()));
        assertThat(embedder.roles.get(0)).isEqualTo(TextRole.DOCUMENT);
        // "utils" is only in the header: BM25 must not see it, "return" is in the body
        assertThat(shaped.search(SearchRequest.builder("utils").legs(java.util.Set.of(Leg.BM25)).build()).hits())
                .isEmpty();
        assertThat(shaped.search(SearchRequest.builder("return").legs(java.util.Set.of(Leg.BM25)).build()).hits())
                .hasSize(1);
        assertThat(plain.fingerprint().denseModel()).isEqualTo("table-embedder");
        assertThat(shaped.fingerprint().denseModel()).isEqualTo("table-embedder+text:header");
        assertThat(plain.fingerprint().differences(shaped.fingerprint())).isNotEmpty();
    }
}
