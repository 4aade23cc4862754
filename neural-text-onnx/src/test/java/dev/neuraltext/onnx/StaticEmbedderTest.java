package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.TextRole;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StaticEmbedder} on a synthetic model file (random int8 rows over the all-MiniLM-L6-v2 tokenizer, the BERT
 * uncased vocabulary bge-small shares): vectors checked against the sum computed here from the tokenizer's ids, and
 * every way a model file can be bad.
 */
class StaticEmbedderTest {

    private static final int VOCABULARY = 30522;
    private static final int DIMENSION = 8;
    private static byte[] tokenizerJson;

    @TempDir
    Path dir;

    @BeforeAll
    static void readTokenizer() throws IOException {
        try (InputStream in = StaticEmbedderTest.class.getClassLoader()
                .getResourceAsStream(OnnxEmbedder.MINILM_TOKENIZER_RESOURCE)) {
            tokenizerJson = in.readAllBytes();
        }
    }

    /** A model file of {@code vocabulary} random rows; [CLS] (101) and [SEP] (102) get scale 0. */
    static byte[] modelFile(String name, int vocabulary, int dimension, byte[] tokenizer, long seed) {
        Random random = new Random(seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer head = ByteBuffer.allocate(8 + 4 * 5 + nameBytes.length).order(ByteOrder.LITTLE_ENDIAN);
        head.put(StaticModelFile.MAGIC).putInt(1).putInt(vocabulary).putInt(dimension);
        head.putInt(nameBytes.length).put(nameBytes).putInt(tokenizer.length);
        out.writeBytes(head.array());
        out.writeBytes(tokenizer);
        ByteBuffer scales = ByteBuffer.allocate(4 * vocabulary).order(ByteOrder.LITTLE_ENDIAN);
        for (int t = 0; t < vocabulary; t++) {
            scales.putFloat(t == 101 || t == 102 ? 0f : 0.01f + random.nextFloat());
        }
        out.writeBytes(scales.array());
        byte[] rows = new byte[vocabulary * dimension];
        random.nextBytes(rows);
        out.writeBytes(rows);
        CRC32 crc = new CRC32();
        crc.update(out.toByteArray());
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue()).array());
        return out.toByteArray();
    }

    private Path write(byte[] bytes) throws IOException {
        Path file = dir.resolve("model.ntsm");
        Files.write(file, bytes);
        return file;
    }

    @Test
    void vectorIsTheNormalisedSumOfTheTextsRows() throws IOException {
        byte[] bytes = modelFile("synthetic", VOCABULARY, DIMENSION, tokenizerJson, 7);
        StaticModelFile parsed = StaticModelFile.parse(bytes, "test");
        String text = "public InputStream openStream(Path file) throws IOException";
        try (StaticEmbedder embedder = StaticEmbedder.load(write(bytes));
                ModelTokenizer tokenizer = ModelTokenizer.load(tokenizerJson, "test", 0)) {
            long[] ids = tokenizer.contentIds(text);
            assertThat(ids.length).isGreaterThan(5);
            double[] sum = new double[DIMENSION];
            for (long id : ids) {
                for (int d = 0; d < DIMENSION; d++) {
                    sum[d] += parsed.scales()[(int) id] * parsed.rows()[(int) id * DIMENSION + d];
                }
            }
            double norm = Math.sqrt(Arrays.stream(sum).map(x -> x * x).sum());
            float[] v = embedder.embed(List.of(text), TextRole.DOCUMENT).get(0);
            assertThat(v).hasSize(DIMENSION);
            for (int d = 0; d < DIMENSION; d++) {
                assertThat((double) v[d]).isCloseTo(sum[d] / norm, org.assertj.core.data.Offset.offset(1e-5));
            }
            assertThat(embedder.embedQuery(text)).containsExactly(v);
            assertThat(embedder.dimension()).isEqualTo(DIMENSION);
            assertThat(embedder.modelId()).isEqualTo("synthetic/static/8/" + parsed.sha256().substring(0, 12));
        }
    }

    @Test
    void textWithoutWeightedWordPiecesGetsTheZeroVector() throws IOException {
        try (StaticEmbedder embedder = StaticEmbedder.load(write(modelFile("m", VOCABULARY, 4, tokenizerJson, 1)))) {
            List<float[]> vectors = embedder.embed(List.of("", "[CLS] [SEP]", "   "), TextRole.QUERY);
            assertThat(vectors).allSatisfy(v -> assertThat(v).containsOnly(0f));
            assertThat(embedder.embed(List.of(), TextRole.DOCUMENT)).isEmpty();
        }
    }

    @Test
    void nullsAndUseAfterCloseAreRefused() throws IOException {
        StaticEmbedder embedder = StaticEmbedder.load(write(modelFile("m", VOCABULARY, 4, tokenizerJson, 1)));
        assertThatThrownBy(() -> embedder.embed(Arrays.asList("a", null), TextRole.QUERY))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("texts[1]");
        assertThatThrownBy(() -> embedder.embed(List.of("a"), null)).isInstanceOf(NullPointerException.class);
        embedder.close();
        embedder.close();
        assertThatThrownBy(() -> embedder.embed(List.of("a"), TextRole.QUERY))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void missingFileIsNamed() {
        Path missing = dir.resolve("nope.ntsm");
        assertThatThrownBy(() -> StaticEmbedder.load(missing)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("not found").hasMessageContaining(missing.toString());
    }

    @Test
    void truncatedFileIsNamed() throws IOException {
        byte[] bytes = modelFile("m", VOCABULARY, 4, tokenizerJson, 1);
        Path cut = write(Arrays.copyOf(bytes, bytes.length - 1000));
        assertThatThrownBy(() -> StaticEmbedder.load(cut)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining(cut.toString()).hasMessageContaining("truncated");
        Path header = write(Arrays.copyOf(bytes, 14));
        assertThatThrownBy(() -> StaticEmbedder.load(header)).hasMessageContaining(header.toString())
                .hasMessageContaining("truncated");
        Path inTokenizer = write(Arrays.copyOf(bytes, 100));
        assertThatThrownBy(() -> StaticEmbedder.load(inTokenizer)).hasMessageContaining(inTokenizer.toString())
                .hasMessageContaining("truncated");
    }

    @Test
    void foreignOrDamagedFileIsNamed() throws IOException {
        byte[] bytes = modelFile("m", VOCABULARY, 4, tokenizerJson, 1);
        Path foreign = write(tokenizerJson);
        assertThatThrownBy(() -> StaticEmbedder.load(foreign)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining(foreign.toString()).hasMessageContaining("not a neural-text static model");
        byte[] flipped = bytes.clone();
        flipped[bytes.length - 50] ^= 1;
        Path damaged = write(flipped);
        assertThatThrownBy(() -> StaticEmbedder.load(damaged)).hasMessageContaining(damaged.toString())
                .hasMessageContaining("corrupt");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 3);
        Path trailing = write(longer);
        assertThatThrownBy(() -> StaticEmbedder.load(trailing)).hasMessageContaining("trailing bytes");
    }

    @Test
    void tableSmallerThanTheTokenizerIsRefused() throws IOException {
        Path small = write(modelFile("m", 1000, 4, tokenizerJson, 1));
        assertThatThrownBy(() -> StaticEmbedder.load(small)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining(small.toString()).hasMessageContaining("1000 rows");
    }
}
