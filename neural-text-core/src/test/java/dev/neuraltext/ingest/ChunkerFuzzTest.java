package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.Fuzz;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hostile Java and Markdown through the chunkers: random nesting (deep enough to overflow a default stack),
 * unbalanced braces, huge literals, random front matter. Never an exception or error; the chunks keep their
 * invariants (unique ids, lines within the file, bounded heading paths, text not lost).
 */
class ChunkerFuzzTest {

    private static final JavaSourceChunker JAVA = new JavaSourceChunker();
    private static final MarkdownChunker MARKDOWN = MarkdownChunker.create();
    private static final String[] JAVA_PIECES = {"class A {", "}", "{", "(", ")", "int f() {", "return ", ";",
        "/** doc */", "// c\n", "/*", "*/", "\"str", "\"", "'c'", "@Override ", "record R(int x) {", "enum E { A, B }",
        "interface I {", "void g(int... a) {}", "<T>", "->", "x + ", "\n", "\t", "\\u0041", "\u0000", "\uD800"};

    private static String randomJava(Random random) {
        StringBuilder sb = new StringBuilder();
        switch (random.nextInt(4)) {
            case 0 -> { // deep nesting of one kind
                int depth = random.nextInt(random.nextBoolean() ? 200 : 8_000);
                String open = new String[] {"(", "{", "[", "new int[] {"}[random.nextInt(4)];
                String close = switch (open) {
                    case "(" -> ")";
                    case "[" -> "]";
                    default -> "}";
                };
                sb.append("class D { Object f() { return ").append(open.repeat(depth)).append('1')
                        .append(close.repeat(random.nextBoolean() ? depth : random.nextInt(depth + 1)))
                        .append("; } }");
            }
            case 1 -> { // a huge literal, or a long operator chain
                if (random.nextBoolean()) {
                    sb.append("class L { String s = \"").append("x".repeat(random.nextInt(50_000))).append("\"; }");
                } else {
                    sb.append("class C { int v = ").append("1 + ".repeat(random.nextInt(5_000))).append("1; }");
                }
            }
            default -> { // random pieces: unbalanced braces, stray comments and quotes
                int n = random.nextInt(200);
                for (int i = 0; i < n; i++) {
                    sb.append(JAVA_PIECES[random.nextInt(JAVA_PIECES.length)]).append(random.nextBoolean() ? " " : "");
                }
            }
        }
        return sb.toString();
    }

    private static String randomMarkdown(Random random) {
        StringBuilder sb = new StringBuilder();
        if (random.nextInt(3) > 0) {
            sb.append("---\n");
            int n = random.nextInt(20);
            String[] yaml = {"title: T", "tags: [a, b", "tags: [a, b]", "k: v: w", "- item", "  nested: {x: 1}",
                "&a [*a, *a]", "key: \"unclosed", "date: 2024-01-01", ": x", "{{{{{{", "[[[[[[", "!!binary x",
                "a: " + "[".repeat(random.nextInt(200))};
            for (int i = 0; i < n; i++) {
                sb.append(yaml[random.nextInt(yaml.length)]).append('\n');
            }
            if (random.nextInt(5) > 0) {
                sb.append(random.nextBoolean() ? "---\n" : "...\n");
            }
        }
        String[] body = {"# H", "## Sub", "### " + "long ".repeat(random.nextInt(400)), "text", "", "---", "===",
            "> quote", "- list", "```", "    code", "[link](x)", "* * *", ">".repeat(random.nextInt(2_000)) + " deep",
            "- ".repeat(random.nextInt(500)) + "nested"};
        int lines = random.nextInt(60);
        for (int i = 0; i < lines; i++) {
            sb.append(body[random.nextInt(body.length)]).append('\n');
        }
        return sb.toString();
    }

    private static void checkChunks(String source, String text, List<ChunkInput> chunks) {
        Set<String> ids = new HashSet<>();
        int lineCount = SourceText.splitLines(text).size();
        for (ChunkInput c : chunks) {
            assertThat(ids.add(c.id())).as("unique id %s", c.id()).isTrue();
            String start = c.metadata().get(ChunkMetadata.START_LINE);
            String end = c.metadata().get(ChunkMetadata.END_LINE);
            if (start != null && end != null) {
                assertThat(Integer.parseInt(start)).isBetween(1, Integer.parseInt(end));
                assertThat(Integer.parseInt(end)).isLessThanOrEqualTo(lineCount);
            }
        }
        if (!text.isBlank()) {
            assertThat(chunks).as("chunks of a non-blank %s: %s", source,
                    text.length() > 300 ? text.substring(0, 300) + "..." : text).isNotEmpty();
        }
    }

    @Test
    void javaChunkerNeverFailsOnHostileSource() {
        int n = Fuzz.run("java chunker", 2_000, 4_000, (random, i) -> {
            String text = randomJava(random);
            List<ChunkInput> chunks = JAVA.chunk(ExtractionResult.of("F" + i + ".java", text));
            checkChunks("Java file", text, chunks);
        });
        assertThat(n).isPositive();
    }

    @Test
    void markdownChunkerNeverFailsAndKeepsHeadingPathsBounded() {
        int n = Fuzz.run("markdown chunker", 2_000, 3_000, (random, i) -> {
            String text = randomMarkdown(random);
            List<ChunkInput> chunks = MARKDOWN.chunk(ExtractionResult.of("f" + i + ".md", text));
            checkChunks("Markdown file", text, chunks);
            for (ChunkInput c : chunks) {
                String section = c.metadata().getOrDefault(ChunkMetadata.SECTION, "");
                assertThat(section.length()).isLessThanOrEqualTo(6 * (MarkdownChunker.MAX_HEADING_CHARS + 3));
            }
            long frontMatterChunks = chunks.stream().filter(c -> c.id().contains("#_frontmatter")
                    && !c.id().contains("#part")).count();
            assertThat(frontMatterChunks).isLessThanOrEqualTo(1);
        });
        assertThat(n).isPositive();
    }
}
