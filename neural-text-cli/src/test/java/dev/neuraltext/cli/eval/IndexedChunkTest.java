package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.ingest.JavaSourceChunker;
import dev.neuraltext.ingest.MarkdownChunker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The eval's chunk of a BEIR document equals what {@code index} makes of the real file: each test chunks a file with
 * the product's chunker, builds the BEIR document the way the datasets are built (title, text and metadata of that
 * section or member), and compares.
 */
class IndexedChunkTest {

    private static final List<String> SHARED_METADATA = List.of(ChunkMetadata.SYMBOL, ChunkMetadata.SYMBOL_TYPE,
            ChunkMetadata.SECTION, ChunkMetadata.TYPE, ChunkMetadata.LANGUAGE, ChunkMetadata.SIGNATURE,
            ChunkMetadata.CLASS_NAME);

    @Test
    void aMarkdownSectionIsIndexedAsTheMarkdownChunkerIndexesIt() {
        String md = "# Features\n\nIntro.\n\n## Reusable containers\n\nCall `withReuse(true)` on the container.\n";
        List<ChunkInput> chunks = MarkdownChunker.create().chunk(new ExtractionResult("docs/features.md", md,
                Map.of(ChunkMetadata.PATH, "docs/features.md", ChunkMetadata.LANGUAGE, "markdown"), Map.of()));
        ChunkInput product = chunks.get(1);
        assertThat(product.metadata()).containsEntry(ChunkMetadata.SECTION, "Features > Reusable containers");

        EvalDocument doc = new EvalDocument("docs/features.md#features-reusable-containers", "Reusable containers",
                product.fields().get(ChunkMetadata.FIELD_BODY), Map.of("path", "docs/features.md",
                        IndexedChunk.HEADING_PATH, "Features > Reusable containers", "kind", "doc-section"));
        assertSameAsProduct(IndexedChunk.of(doc), product);
    }

    @Test
    void aJavaMethodAndItsTypeAreIndexedAsTheJavaChunkerIndexesThem() {
        String src = "package org.example;\n\npublic final class Strings {\n"
                + "    @Deprecated\n    public static boolean isBlank(final CharSequence cs) {\n"
                + "        return cs == null || cs.toString().trim().isEmpty();\n    }\n}\n";
        List<ChunkInput> chunks = new JavaSourceChunker().chunk(new ExtractionResult("src/org/example/Strings.java",
                src, Map.of(ChunkMetadata.PATH, "src/org/example/Strings.java", ChunkMetadata.LANGUAGE, "java"),
                Map.of()));
        ChunkInput type = chunks.stream().filter(c -> c.metadata().get(ChunkMetadata.SYMBOL_TYPE).equals("type"))
                .findFirst().orElseThrow();
        ChunkInput method = chunks.stream().filter(c -> c.metadata().get(ChunkMetadata.SYMBOL_TYPE).equals("method"))
                .findFirst().orElseThrow();

        Map<String, String> common = Map.of("path", "src/org/example/Strings.java", "package", "org.example",
                "className", "Strings");
        EvalDocument methodDoc = new EvalDocument("src/org/example/Strings.java#Strings.isBlank(CharSequence)",
                "Strings.isBlank", method.fields().get(ChunkMetadata.FIELD_BODY),
                with(common, "symbol", "Strings.isBlank", "kind", "method"));
        assertSameAsProduct(IndexedChunk.of(methodDoc), method);

        String typeText = type.text().substring(type.text().indexOf('\n') + 1); // the dataset has no heading line
        EvalDocument typeDoc = new EvalDocument("src/org/example/Strings.java#Strings", "Strings", typeText,
                with(common, "symbol", "Strings", "kind", "type"));
        ChunkInput ours = IndexedChunk.of(typeDoc);
        assertThat(ours.text()).isEqualTo(type.text());
        assertThat(ours.fields().get(ChunkMetadata.FIELD_NAME)).isEqualTo(type.fields().get(ChunkMetadata.FIELD_NAME));
        assertThat(ours.fields().get(ChunkMetadata.FIELD_SIGNATURE))
                .isEqualTo(type.fields().get(ChunkMetadata.FIELD_SIGNATURE));
        assertThat(ours.fields().get(ChunkMetadata.FIELD_BODY).strip())
                .isEqualTo(type.fields().get(ChunkMetadata.FIELD_BODY).strip());
    }

    @Test
    void aDocumentOfAnotherLanguageIsTheDatasetsOwnChunk() {
        EvalDocument doc = new EvalDocument("notes/a.txt#1", "A", "some text", Map.of("path", "notes/a.txt"));
        assertThat(IndexedChunk.of(doc)).isEqualTo(doc.toChunkInput());
        EvalDocument noPath = new EvalDocument("42", "A", "some text", Map.of());
        assertThat(IndexedChunk.of(noPath)).isEqualTo(noPath.toChunkInput());
    }

    @Test
    void theLanguageComesFromTheIdWhenThereIsNoPathMetadata() {
        EvalDocument doc = new EvalDocument("guide/setup.md#install", "Install", "Run it.", Map.of());
        ChunkInput c = IndexedChunk.of(doc);
        assertThat(c.fields()).containsEntry(ChunkMetadata.FIELD_NAME, "Install");
        assertThat(c.metadata()).containsEntry(ChunkMetadata.SECTION, "Install");
    }

    @Test
    void aDeclarationStopsAtItsBodyAndLosesAMembersAnnotations() {
        assertThat(IndexedChunk.declaration("@Override\n  public int f(int a,\n   int b) {\n return a; }", true))
                .isEqualTo("public int f(int a, int b)");
        assertThat(IndexedChunk.declaration("@SuppressWarnings({\"x\"}) class A<T> { }", false))
                .isEqualTo("@SuppressWarnings({\"x\"}) class A<T>");
        assertThat(IndexedChunk.declaration("abstract void g();", true)).isEqualTo("abstract void g()");
    }

    private static void assertSameAsProduct(ChunkInput ours, ChunkInput product) {
        assertThat(ours.text()).isEqualTo(product.text());
        assertThat(ours.fields()).isEqualTo(product.fields());
        for (String key : SHARED_METADATA) {
            assertThat(ours.metadata().get(key)).as(key).isEqualTo(product.metadata().get(key));
        }
    }

    private static Map<String, String> with(Map<String, String> base, String k1, String v1, String k2, String v2) {
        Map<String, String> m = new java.util.LinkedHashMap<>(base);
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }
}
