package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.TextRole;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pure-Java {@link WordPieceTokenizer} against the native Hugging Face tokenizer (DJL's, through
 * {@link ModelTokenizer#contentIds}) on the bundled static model's tokenizer.json and on all-MiniLM-L6-v2's: the same
 * ids for tricky strings, every code point, seeded random strings over a mixed alphabet, and this repository's own
 * Java sources; the same {@link StaticEmbedder} vectors with either, bit for bit the old int8 sum; and the refusal
 * of tokenizers of another shape. A mismatch prints the input (escaped) and both id lists.
 */
class WordPieceTokenizerTest {

    /** neural-text-core's sources, relative to this module's folder (the tests' working directory). */
    private static final Path CORE_SOURCES = Path.of("..", "neural-text-core", "src", "main", "java");

    private static byte[] bundledJson;
    private static byte[] miniLmJson;
    private static ModelTokenizer nativeBundled;
    private static WordPieceTokenizer javaBundled;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        bundledJson = StaticModelFile.parse(resourceBytes(StaticEmbedder.BUNDLED_RESOURCE), "bundled").tokenizerJson();
        miniLmJson = resourceBytes(OnnxEmbedder.MINILM_TOKENIZER_RESOURCE);
        nativeBundled = ModelTokenizer.load(bundledJson, "bundled", 0);
        javaBundled = WordPieceTokenizer.fromJson(bundledJson, "bundled");
    }

    @AfterAll
    static void close() {
        nativeBundled.close();
    }

    private static InputStream resource(String name) {
        InputStream in = WordPieceTokenizerTest.class.getClassLoader().getResourceAsStream(name);
        assertThat(in).as(name).isNotNull();
        return in;
    }

    /** Texts that have tripped tokenizers: cases, accents, scripts, controls, long words, added tokens. */
    static final List<String> TRICKY = List.of(
            "", " ", "   \t\n\r  ", "\u00a0\u2003\u3000", "getUserName", "HTTPServerError", "snake_case_name",
            "SCREAMING_SNAKE", "kebab-case-name", "café naïve résumé Ångström", "ÀÉÎÕÜ ß ø æ œ ﬁ", "İstanbul ǅ ǈ",
            "Ελληνικά ΣΊΣΥΦΟΣ", "Привет, мир!", "日本語のテキスト", "中文分词测试", "한국어 텍스트", "𠀀𠀁 𪜀",
            "emoji 😀 👍🏽 👨‍👩‍👧 🇫🇷 ❤️", "tab\there\nnew\rline", "nul\u0000byte \u0007bell \u001bescape",
            "zero\u200bwidth\u200djoiner\u00adsoft\ufeffbom", "\ufffdreplacement", "private\ue000use",
            "a".repeat(100), "b".repeat(101), "supercalifragilistic".repeat(6), "x".repeat(300) + " tail",
            "!!!???...;;;:::", "((([[[{{{}}}]]])))", "a->b=>c::d", "i++ --j && k || !l", "@DefaultBean",
            "@Override public String toString() { return \"x\"; }", "https://example.com/path?q=1&r=two#frag",
            "user@example.org", "3.14159 1e-10 0xFF 1_000_000 -42", "v1.2.3-SNAPSHOT", "[CLS] text [SEP]",
            "a[MASK]b", "[UNK][PAD]", "[cls] lower", "[CLS", "¿Qué? ¡Sí! «quoted» “curly” ‘single’ — – …",
            "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ", "ﬀ ﬃ ℌ ℕ ① ²", "e\u0301 a\u0308 n\u0303", "\u0301\u0308 lone marks",
            "Ǆemal", "ΐ ΰ", "a\u0345b", "$ % ^ ` ~ | \\ < >", "a\uD800b", "\uDC00 lone low", "end\uD83D");

    @Test
    void trickyStringsGetTheNativeIds() {
        for (String text : TRICKY) {
            assertSameIds(nativeBundled, javaBundled, text);
        }
    }

    @Test
    void everyCodePointIsTreatedAsTheNativeTokenizerDoes() {
        // Each code point between two letters, 512 to a text: removed, split off, stripped or kept alike.
        StringBuilder text = new StringBuilder();
        int inText = 0;
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (cp == Character.MIN_SURROGATE) {
                cp = Character.MAX_SURROGATE + 1;
            } else if (cp == 0x40000) {
                // Planes 4 to 13 have no code point assigned in any Unicode version yet.
                cp = 0xE0000;
            }
            text.append('q').appendCodePoint(cp).append("q ");
            if (++inText == 512 || cp == Character.MAX_CODE_POINT) {
                String s = text.toString();
                long[] java = Arrays.stream(javaBundled.contentIds(s)).asLongStream().toArray();
                if (!Arrays.equals(nativeIds(nativeBundled, s), java)) {
                    // Name the code point: one at a time.
                    s.codePoints().filter(c -> c != 'q' && c != ' ').forEach(c -> assertSameIds(nativeBundled,
                            javaBundled, "q" + new String(Character.toChars(c)) + "q"));
                    assertSameIds(nativeBundled, javaBundled, s);
                }
                text.setLength(0);
                inText = 0;
            }
        }
    }

    @Test
    void seededRandomStringsGetTheNativeIdsForBothBertTokenizers() {
        try (ModelTokenizer nativeMiniLm = ModelTokenizer.load(miniLmJson, "minilm", 0)) {
            WordPieceTokenizer javaMiniLm = WordPieceTokenizer.fromJson(miniLmJson, "minilm");
            for (String text : randomTexts(3000, 20260312L)) {
                assertSameIds(nativeBundled, javaBundled, text);
                assertSameIds(nativeMiniLm, javaMiniLm, text);
            }
        }
    }

    @Test
    void thisRepositorysJavaSourcesGetTheNativeIds() {
        List<String> sources = coreSources();
        assertThat(sources).as("Java files under " + CORE_SOURCES.toAbsolutePath()).hasSizeGreaterThan(50);
        for (String text : sources) {
            assertSameIds(nativeBundled, javaBundled, text);
        }
    }

    @Test
    void staticEmbedderGivesTheSameVectorsWithEitherTokenizer() {
        List<String> texts = new ArrayList<>(TRICKY);
        texts.addAll(randomTexts(500, 99L));
        texts.addAll(coreSources());
        try (StaticEmbedder java = StaticEmbedder.bundled();
                StaticEmbedder nativeTokenizer = StaticEmbedder.bundled(StaticEmbedder.Tokenization.NATIVE)) {
            assertThat(java.tokenizesInJava()).isTrue();
            assertThat(nativeTokenizer.tokenizesInJava()).isFalse();
            assertThat(java.modelId()).isEqualTo(nativeTokenizer.modelId());
            List<float[]> a = java.embed(texts, TextRole.DOCUMENT);
            List<float[]> b = nativeTokenizer.embed(texts, TextRole.DOCUMENT);
            StaticModelFile model = StaticModelFile.parse(resourceBytes(StaticEmbedder.BUNDLED_RESOURCE), "bundled");
            for (int i = 0; i < texts.size(); i++) {
                assertThat(a.get(i)).as("vector of %s", escape(texts.get(i))).containsExactly(b.get(i))
                        .containsExactly(int8Sum(model, nativeIds(nativeBundled, texts.get(i))));
            }
        }
    }

    /** The normalised sum as the int8 table gives it, one scaled byte at a time: what the embedder computed before. */
    private static float[] int8Sum(StaticModelFile model, long[] ids) {
        int dim = model.dimension();
        float[] v = new float[dim];
        for (long id : ids) {
            float s = model.scales()[(int) id];
            if (s == 0f) {
                continue;
            }
            for (int d = 0; d < dim; d++) {
                v[d] += s * model.rows()[(int) id * dim + d];
            }
        }
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        if (norm > 0) {
            float inv = (float) (1.0 / Math.sqrt(norm));
            for (int d = 0; d < dim; d++) {
                v[d] *= inv;
            }
        }
        return v;
    }

    private static byte[] resourceBytes(String name) {
        try (InputStream in = resource(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A minimal byte-level BPE tokenizer.json: not of the WordPiece shape. */
    static final String BPE_JSON = "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null,\"added_tokens\":[],"
            + "\"normalizer\":null,\"pre_tokenizer\":{\"type\":\"ByteLevel\",\"add_prefix_space\":false,"
            + "\"trim_offsets\":true,\"use_regex\":true},\"post_processor\":null,\"decoder\":null,"
            + "\"model\":{\"type\":\"BPE\",\"dropout\":null,\"unk_token\":null,\"continuing_subword_prefix\":null,"
            + "\"end_of_word_suffix\":null,\"fuse_unk\":false,\"byte_fallback\":false,"
            + "\"vocab\":{\"a\":0,\"b\":1,\"ab\":2},\"merges\":[\"a b\"]}}";

    @Test
    void otherTokenizerShapesAreRefusedByNameAndTheEmbedderFallsBackToTheNativeTokenizer() throws IOException {
        byte[] bpe = BPE_JSON.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> WordPieceTokenizer.fromJson(bpe, "my/tokenizer.json"))
                .isInstanceOf(WordPieceTokenizer.UnsupportedTokenizerException.class)
                .hasMessageContaining("my/tokenizer.json").hasMessageContaining("model \"BPE\"");
        String bert = new String(bundledJson, StandardCharsets.UTF_8);
        byte[] otherNormalizer = bert.replace("\"BertNormalizer\"", "\"NFKC\"").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> WordPieceTokenizer.fromJson(otherNormalizer, "n.json"))
                .isInstanceOf(WordPieceTokenizer.UnsupportedTokenizerException.class)
                .hasMessageContaining("n.json").hasMessageContaining("normalizer \"NFKC\"");
        byte[] otherPreTokenizer = bert.replace("\"BertPreTokenizer\"", "\"Whitespace\"")
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> WordPieceTokenizer.fromJson(otherPreTokenizer, "p.json"))
                .isInstanceOf(WordPieceTokenizer.UnsupportedTokenizerException.class)
                .hasMessageContaining("pre_tokenizer \"Whitespace\"");
        byte[] stripping = bert.replaceFirst("\"lstrip\": ?false", "\"lstrip\": true").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> WordPieceTokenizer.fromJson(stripping, "s.json"))
                .isInstanceOf(WordPieceTokenizer.UnsupportedTokenizerException.class)
                .hasMessageContaining("\"lstrip\": true");
        // Not JSON at all is an error, not a reason to try the native tokenizer.
        assertThatThrownBy(() -> WordPieceTokenizer.fromJson("{oops".getBytes(StandardCharsets.UTF_8), "x.json"))
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .isNotInstanceOf(WordPieceTokenizer.UnsupportedTokenizerException.class)
                .hasMessageContaining("x.json");

        Path file = dir.resolve("bpe.ntsm");
        Files.write(file, StaticEmbedderTest.modelFile("bpe", 3, 4, bpe, 5));
        try (StaticEmbedder embedder = StaticEmbedder.load(file);
                ModelTokenizer nativeBpe = ModelTokenizer.load(bpe, "bpe", 0)) {
            assertThat(embedder.tokenizesInJava()).isFalse();
            assertThat(embedder.toString()).contains("tokenizer=native");
            assertThat(embedder.contentIds("ab ba")).containsExactly(Arrays.stream(nativeBpe.contentIds("ab ba"))
                    .mapToInt(id -> (int) id).toArray()).isNotEmpty();
            float[] v = embedder.embed(List.of("ab"), TextRole.DOCUMENT).get(0);
            assertThat(v).containsExactly(embedder.embedIds(new int[] {2}));
        }
    }

    private static void assertSameIds(ModelTokenizer nativeTokenizer, WordPieceTokenizer java, String text) {
        long[] expected = nativeIds(nativeTokenizer, text);
        int[] actual = java.contentIds(text);
        assertThat(Arrays.stream(actual).asLongStream().toArray())
                .as("ids of %s%n  native: %s%n  java:   %s", escape(text), Arrays.toString(expected),
                        Arrays.toString(actual))
                .containsExactly(expected);
    }

    private static long[] nativeIds(ModelTokenizer tokenizer, String text) {
        return tokenizer.contentIds(text);
    }

    /** {@code text} in quotes, with everything outside printable ASCII as a \\u escape, cut at 2,000 chars. */
    static String escape(String text) {
        StringBuilder b = new StringBuilder("\"");
        String cut = text.length() > 2000 ? text.substring(0, 2000) : text;
        for (char c : cut.toCharArray()) {
            if (c >= 0x20 && c < 0x7F && c != '\\') {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.append(text.length() > cut.length() ? "\"... (" + text.length() + " chars)" : "\"").toString();
    }

    /** Alphabet blocks random texts draw from: code ASCII (weighted up), Latin-1, Greek, CJK, marks, emoji. */
    private static final int[][] BLOCKS = {
        {0x20, 0x7E}, {0x20, 0x7E}, {0x20, 0x7E}, {'a', 'z'}, {'a', 'z'}, {'A', 'Z'}, {0x09, 0x0D},
        {0xA0, 0xFF}, {0x370, 0x3FF}, {0x400, 0x45F}, {0x4E00, 0x4E80}, {0x3040, 0x30FF}, {0xAC00, 0xAC40},
        {0x300, 0x36F}, {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x2000, 0x206F}, {0xFF00, 0xFF5E},
        {0x20000, 0x20050}, {0x0, 0x1F},
    };

    private static final String[] PIECES = {"[CLS]", "[SEP]", "[MASK]", "\u200d", "\ufe0f", "##", "the ", "ing "};

    static List<String> randomTexts(int count, long seed) {
        Random random = new Random(seed);
        List<String> texts = new ArrayList<>(count);
        for (int t = 0; t < count; t++) {
            int length = random.nextInt(random.nextInt(10) == 0 ? 400 : 60);
            StringBuilder b = new StringBuilder();
            while (b.length() < length) {
                if (random.nextInt(25) == 0) {
                    b.append(PIECES[random.nextInt(PIECES.length)]);
                    continue;
                }
                int[] block = BLOCKS[random.nextInt(BLOCKS.length)];
                int run = 1 + random.nextInt(8);
                for (int i = 0; i < run; i++) {
                    b.appendCodePoint(block[0] + random.nextInt(block[1] - block[0] + 1));
                }
            }
            texts.add(b.toString());
        }
        return texts;
    }

    static List<String> coreSources() {
        try (Stream<Path> files = Files.walk(CORE_SOURCES)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().map(f -> {
                try {
                    return Files.readString(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + CORE_SOURCES.toAbsolutePath(), e);
        }
    }
}
