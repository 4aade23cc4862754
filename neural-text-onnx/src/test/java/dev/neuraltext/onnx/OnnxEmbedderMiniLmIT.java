package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.neuraltext.encode.TextRole;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The all-MiniLM-L6-v2 preset against the real 90 MB model (slow: loads it once for the class). */
class OnnxEmbedderMiniLmIT {

    private static final List<String> SHORT = List.of(
            "The cat sits on the mat.",
            "A kitten is lying on a rug.",
            "Quarterly revenue grew by eight percent.",
            "StringUtils.isBlank checks whether a string is empty or whitespace",
            "public static boolean isEmpty(CharSequence cs) { return cs == null || cs.length() == 0; }",
            "hello world");

    private static OnnxEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = OnnxEmbedder.allMiniLmL6V2();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    @Test
    void declaresDimensionAndIdWithoutEmbedding() {
        assertThat(embedder.dimension()).isEqualTo(384);
        assertThat(embedder.maxSequenceLength()).isEqualTo(256);
        assertThat(embedder.modelId()).isEqualTo("all-MiniLM-L6-v2/mean/256");
    }

    @Test
    void similarSentencesAreCloserThanUnrelatedOnesAndVectorsHaveUnitLength() {
        List<float[]> v = embedder.embed(SHORT.subList(0, 3), TextRole.DOCUMENT);
        assertThat(dot(v.get(0), v.get(1))).isGreaterThan(dot(v.get(0), v.get(2)) + 0.3);
        for (float[] x : v) {
            assertThat(x).hasSize(384);
            assertThat(Math.sqrt(dot(x, x))).isCloseTo(1.0, within(1e-5));
        }
    }

    @Test
    void agreesWithLangChain4jOnShortSentences() {
        AllMiniLmL6V2EmbeddingModel reference = new AllMiniLmL6V2EmbeddingModel();
        List<float[]> ours = embedder.embed(SHORT, TextRole.DOCUMENT);
        for (int i = 0; i < SHORT.size(); i++) {
            float[] theirs = reference.embed(TextSegment.from(SHORT.get(i))).content().vector();
            assertThat(ours.get(i)).as(SHORT.get(i)).containsExactly(theirs, within(1e-5f));
        }
    }

    @Test
    void literalComponentsOfHelloWorld() {
        // Committed from a run that LangChain4j's implementation agreed with (test above), to catch silent drift.
        float[] v = embedder.embedQuery("hello world");
        assertThat(v[0]).isCloseTo(-0.03447727f, within(1e-5f));
        assertThat(v[1]).isCloseTo(0.03102317f, within(1e-5f));
        assertThat(v[2]).isCloseTo(0.00673497f, within(1e-5f));
        assertThat(v[383]).isCloseTo(0.030206833f, within(1e-5f));
    }

    @Test
    void batchEqualsOneByOneWhateverTheOrderAndPadding() {
        List<String> texts = new ArrayList<>(SHORT);
        texts.add(longText(700)); // truncated, or several windows
        texts.add(longText(200)); // longer than LangChain4j's 128 cut, one window
        texts.add("");
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(7));
        List<String> shuffled = new ArrayList<>();
        for (int i : order) {
            shuffled.add(texts.get(i));
        }
        try (OnnxEmbedder windows = OnnxEmbedder.allMiniLmL6V2Builder().longInputPolicy(LongInputPolicy.WINDOWS)
                .batchSize(3).build()) {
            for (OnnxEmbedder e : List.of(embedder, windows)) {
                List<float[]> single = new ArrayList<>();
                for (String t : texts) {
                    single.add(e.embed(List.of(t), TextRole.DOCUMENT).get(0));
                }
                List<float[]> batched = e.embed(shuffled, TextRole.DOCUMENT);
                for (int k = 0; k < order.size(); k++) {
                    assertThat(batched.get(k)).as("%s, text %d", e.modelId(), order.get(k))
                            .containsExactly(single.get(order.get(k)), within(1e-5f));
                }
            }
            float[] truncated = embedder.embed(List.of(texts.get(6)), TextRole.DOCUMENT).get(0);
            float[] windowed = windows.embed(List.of(texts.get(6)), TextRole.DOCUMENT).get(0);
            assertThat(dot(truncated, windowed)).isLessThan(0.9999);
        }
    }

    @Test
    void truncationIsAt256WordPiecesNotTheTokenizerFiles128() {
        try (OnnxEmbedder truncating = OnnxEmbedder.allMiniLmL6V2Builder()
                .longInputPolicy(LongInputPolicy.TRUNCATE).build()) {
            // Both texts share their first 126 word pieces: identical vectors would mean a cut at 128.
            String text = longText(400);
            String head = String.join(" ", List.of(text.split(" ")).subList(0, 180));
            assertThat(truncating.countTokens(text, TextRole.DOCUMENT)).isGreaterThan(400);
            assertThat(truncating.countTokens(head, TextRole.DOCUMENT)).isGreaterThan(126).isLessThan(254);
            float[] whole = truncating.embed(List.of(text), TextRole.DOCUMENT).get(0);
            float[] first = truncating.embed(List.of(head), TextRole.DOCUMENT).get(0);
            assertThat(dot(whole, first)).isLessThan(0.99999);
            String veryLong = longText(600);
            String veryLongPlus = veryLong + " and a tail that lies far beyond the first 256 word pieces";
            assertThat(truncating.embed(List.of(veryLong, veryLongPlus), TextRole.DOCUMENT))
                    .satisfies(v -> assertThat(v.get(0)).containsExactly(v.get(1), within(1e-5f)));
        }
    }

    @Test
    void concurrentCallersGetTheSameVectors() throws Exception {
        List<String> texts = new ArrayList<>(SHORT);
        texts.add(longText(300));
        List<float[]> expected = embedder.embed(texts, TextRole.DOCUMENT);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<List<float[]>>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(() -> embedder.embed(texts, TextRole.DOCUMENT));
            }
            for (Future<List<float[]>> f : pool.invokeAll(calls)) {
                List<float[]> got = f.get();
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(got.get(i)).containsExactly(expected.get(i), within(1e-5f));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** About {@code words} word pieces of varied code-like English. */
    static String longText(int words) {
        String[] vocab = {"string", "buffer", "append", "returns", "the", "index", "of", "first", "character",
            "null", "empty", "array", "length", "checks", "whether", "value", "between", "bounds", "exception",
            "thrown", "when", "input", "is", "invalid", "otherwise", "result"};
        Random random = new Random(words);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words; i++) {
            sb.append(vocab[random.nextInt(vocab.length)]).append(i % 12 == 11 ? ". " : " ");
        }
        return sb.toString().trim();
    }
}
