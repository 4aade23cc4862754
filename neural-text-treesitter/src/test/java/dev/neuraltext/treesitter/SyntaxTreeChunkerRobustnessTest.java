package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The chunker as a whole on hostile input: seeded random bytes, random nesting, fragments of real syntax, huge lines,
 * long definitions. No exception escapes, every chunk is well formed; work is bounded by input size and iteration
 * counts (no timing assertions).
 */
class SyntaxTreeChunkerRobustnessTest {

    private static final String[] FRAGMENTS = {"fn ", "def ", "class ", "struct ", "{", "}", "(", ")", "[", "]",
            "\"", "'", "/*", "*/", "//", "#", "--", "\n", "  ", "do\n", "end\n", "=>", "->", "::", "<", ">", "@doc \"\"\"",
            "\"\"\"", "\\", "\r", "\t", "\u00e9", "\ud83d\ude00", "\u0000", "if x:", "impl X for Y", "module M where",
            "function f() ", "local function g()", "namespace N ", "template<class T> ", "#[derive(Debug)]\n"};

    /**
     * Inputs of the random test: 180 per build, or {@code -Dfuzz.inputs=N} for a release-scale run (the switch of core's
     * {@code dev.neuraltext.Fuzz}; this module does not depend on core's test jar).
     */
    static int randomInputs() {
        String value = System.getProperty("fuzz.inputs", "").strip();
        if (value.isEmpty()) {
            return 180;
        }
        int n = Integer.parseInt(value.replace("_", ""));
        if (n <= 0) {
            throw new IllegalArgumentException("-Dfuzz.inputs must be a positive integer, got '" + value + "'");
        }
        return n;
    }

    @Test
    void randomBytesRandomNestingAndSyntaxFragmentsNeverThrow() {
        Random random = new Random(20261203L);
        List<String> languages = List.copyOf(SyntaxTreeChunker.languages());
        int inputs = randomInputs();
        long start = System.nanoTime();
        for (int iteration = 0; iteration < inputs; iteration++) {
            String language = languages.get(iteration % languages.size());
            String text = switch (iteration % 4) {
                case 0 -> randomBytes(random, 1 + random.nextInt(2000));
                case 1 -> nesting(random, 1 + random.nextInt(3000));
                default -> fragments(random, 1 + random.nextInt(400));
            };
            List<ChunkInput> chunks;
            try {
                chunks = SyntaxTreeChunkerLanguagesTest.chunk("fuzz/" + iteration, language, text);
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError("iteration " + iteration + " (" + language + ", " + text.length()
                        + " characters) failed: " + e, e);
            }
            if (!text.isBlank()) {
                assertThat(chunks).as("chunks of iteration %d (%s)", iteration, language).isNotEmpty();
            }
            for (ChunkInput c : chunks) {
                int first = Integer.parseInt(c.metadata().get(ChunkMetadata.START_LINE));
                int end = Integer.parseInt(c.metadata().get(ChunkMetadata.END_LINE));
                assertThat(first).isBetween(1, end);
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf(java.util.Locale.ROOT, "fuzz tree-sitter chunker: %d inputs in %.2f s (%.0f/s)%n", inputs,
                secs, inputs / Math.max(secs, 1e-9));
    }

    @Test
    void deepNestingIsChunkedWithoutExhaustingTheStack() {
        for (String language : SyntaxTreeChunker.languages()) {
            String deep = "f(".repeat(20_000) + ")".repeat(20_000) + "\n";
            String classes = "class A {\n".repeat(1_000) + "}\n".repeat(1_000);
            assertThat(SyntaxTreeChunkerLanguagesTest.chunk("deep", language, deep)).isNotEmpty();
            assertThat(SyntaxTreeChunkerLanguagesTest.chunk("classes", language, classes)).isNotEmpty();
        }
    }

    @Test
    void aMinifiedLineFallsBackToWindows() {
        String minified = "function a(){return 1};".repeat(2_000);
        List<ChunkInput> chunks = SyntaxTreeChunkerLanguagesTest.chunk("app.min.js", "javascript", minified);
        assertThat(chunks).isNotEmpty().allSatisfy(c -> assertThat(c.metadata())
                .containsEntry(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_TEXT));
    }

    @Test
    void aLanguageWithoutRulesFallsBackToWindows() {
        List<ChunkInput> chunks = SyntaxTreeChunkerLanguagesTest.chunk("main.zig", "zig", "pub fn main() void {}\n");
        assertThat(chunks).singleElement().satisfies(c -> assertThat(c.metadata())
                .containsEntry(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_TEXT));
    }

    @Test
    void aLongFunctionIsCutAtStatementStartsNeverMidLine() {
        StringBuilder py = new StringBuilder("def long_one(x):\n    \"\"\"Adds a lot.\"\"\"\n");
        for (int i = 0; i < 400; i++) {
            py.append("    x = x + ").append(i).append("  # step ").append(i).append('\n');
        }
        py.append("    return x\n");
        String[] lines = py.toString().split("\n");
        List<ChunkInput> parts = SyntaxTreeChunkerLanguagesTest.chunk("long.py", "python", py.toString());
        assertThat(parts).hasSizeGreaterThan(2);
        int expectedStart = 1;
        for (ChunkInput c : parts) {
            assertThat(c.metadata()).containsEntry(ChunkMetadata.SYMBOL, "long_one");
            assertThat(c.fields().get(ChunkMetadata.FIELD_BODY).length()).isLessThanOrEqualTo(
                    SyntaxTreeChunker.DEFAULT_MAX_CHARS);
            int start = Integer.parseInt(c.metadata().get(ChunkMetadata.START_LINE));
            assertThat(start).isEqualTo(expectedStart);
            expectedStart = Integer.parseInt(c.metadata().get(ChunkMetadata.END_LINE)) + 1;
            if (start > 1) {
                assertThat(lines[start - 1]).startsWith("    x = x + "); // a statement's first line
            }
        }
        assertThat(expectedStart - 1).isEqualTo(lines.length);
        assertThat(parts.get(0).fields()).containsEntry(ChunkMetadata.FIELD_DOC, "\"\"\"Adds a lot.\"\"\"");
        assertThat(parts.get(1).id()).isEqualTo("long.py#long_one/2");
    }

    @Test
    void aCHeaderHoldingCppIsReadAsCppAndAMacroMisparseIsLookedInto() {
        String header = "FMT_BEGIN_NAMESPACE\nnamespace detail {\n\n/// A node.\nclass node {\n  int size() const "
                + "{ return 1; }\n};\n\n}  // namespace detail\nFMT_END_NAMESPACE\n";
        List<ChunkInput> chunks = SyntaxTreeChunkerLanguagesTest.chunk("args.h", "c", header);
        assertThat(chunks.stream().map(SyntaxTreeChunkerLanguagesTest::row))
                .contains("node type/class 5-7 doc", "node.size method/method 6-6");
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.metadata()).containsEntry(ChunkMetadata.LANGUAGE, "cpp");
            assertThat(c.metadata().get(ChunkMetadata.SYMBOL)).doesNotContain(" ");
        });
    }

    private static String randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static String nesting(Random random, int depth) {
        String[][] pairs = {{"{", "}"}, {"(", ")"}, {"[", "]"}, {"do\n", "end\n"}, {"class X {\n", "}\n"},
                {"def f():\n" + " ", "\n"}};
        StringBuilder open = new StringBuilder();
        String[] closers = new String[depth];
        for (int i = 0; i < depth; i++) {
            String[] p = pairs[random.nextInt(pairs.length)];
            open.append(p[0]);
            closers[i] = random.nextInt(10) == 0 ? "" : p[1];
        }
        for (int i = depth - 1; i >= 0; i--) { // innermost first (was an insert at 0 each time: quadratic)
            open.append(closers[i]);
        }
        return open.toString();
    }

    private static String fragments(Random random, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
            if (random.nextInt(5) == 0) {
                sb.append("name").append(random.nextInt(50));
            }
        }
        return sb.toString();
    }
}
