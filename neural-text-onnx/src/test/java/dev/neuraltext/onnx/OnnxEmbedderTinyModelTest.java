package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.TextRole;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OnnxEmbedder} mechanics on {@code tiny/embedder.onnx} (see {@code src/test/python/make_tiny_models.py}):
 * the model maps token id i to the vector (i, 1, -i), and [PAD] (id 0) to (1000, 1000, 1000); it has no
 * {@code token_type_ids} input. Ids: [CLS] 2, [SEP] 3, hello 5, world 6, java 7, string 8, ##s 9, code 10, search 11.
 */
class OnnxEmbedderTinyModelTest {

    private static OnnxEmbedder.Builder tiny() {
        return OnnxEmbedder.builder().modelResource("tiny/embedder.onnx").tokenizerResource("tiny/tokenizer.json")
                .normalize(false);
    }

    @Test
    void meanPoolsTheRealTokensIncludingSpecialTokens() {
        try (OnnxEmbedder e = tiny().build()) {
            assertThat(e.dimension()).isEqualTo(3);
            // [CLS] hello world [SEP] = 2, 5, 6, 3 -> mean 4
            assertThat(e.embed(List.of("Hello world"), TextRole.DOCUMENT).get(0)).containsExactly(4f, 1f, -4f);
        }
    }

    @Test
    void paddingInABatchDoesNotLeakIntoThePooling() {
        try (OnnxEmbedder e = tiny().build()) {
            List<float[]> v = e.embed(List.of("java", "hello world java strings code", "code"), TextRole.DOCUMENT);
            assertThat(v.get(0)).containsExactly(4f, 1f, -4f); // (2 + 7 + 3) / 3
            // 2 + 5 + 6 + 7 + 8 + 9 + 10 + 3 = 50 over 8 tokens
            assertThat(v.get(1)).containsExactly(6.25f, 1f, -6.25f);
            assertThat(v.get(2)).containsExactly(5f, 1f, -5f);
        }
    }

    @Test
    void clsPoolingTakesTheFirstToken() {
        try (OnnxEmbedder e = tiny().pooling(OnnxEmbedder.Pooling.CLS).build()) {
            assertThat(e.embed(List.of("hello world"), TextRole.DOCUMENT).get(0)).containsExactly(2f, 1f, -2f);
        }
    }

    @Test
    void normalisesToUnitLength() {
        try (OnnxEmbedder e = tiny().normalize(true).build()) {
            float n = (float) Math.sqrt(33);
            assertThat(e.embed(List.of("hello world"), TextRole.DOCUMENT).get(0))
                    .containsExactly(new float[] {4 / n, 1 / n, -4 / n}, within(1e-6f));
        }
    }

    @Test
    void prefixesApplyPerRole() {
        try (OnnxEmbedder e = tiny().queryPrefix("search ").documentPrefix("code ").build()) {
            // [CLS] search java [SEP] = (2 + 11 + 7 + 3) / 4
            assertThat(e.embedQuery("java")).containsExactly(5.75f, 1f, -5.75f);
            // [CLS] code java [SEP] = (2 + 10 + 7 + 3) / 4
            assertThat(e.embed(List.of("java"), TextRole.DOCUMENT).get(0)).containsExactly(5.5f, 1f, -5.5f);
            assertThat(e.countTokens("java", TextRole.QUERY)).isEqualTo(2);
            assertThat(e.modelId()).isEqualTo("embedder/mean/512/unnormalized/prefixed");
        }
    }

    @Test
    void longInputsAreTruncatedOrWindowed() {
        // max length 4 = [CLS] + 2 word pieces + [SEP]
        try (OnnxEmbedder truncate = tiny().maxSequenceLength(4).longInputPolicy(LongInputPolicy.TRUNCATE).build();
                OnnxEmbedder windows = tiny().maxSequenceLength(4).longInputPolicy(LongInputPolicy.WINDOWS).build()) {
            // truncated: [CLS] hello world [SEP] only
            assertThat(truncate.embed(List.of("hello world code"), TextRole.DOCUMENT).get(0))
                    .containsExactly(4f, 1f, -4f);
            // windows: [CLS] hello world [SEP] (mean 4, 4 tokens) and [CLS] code [SEP] (mean 5, 3 tokens) -> 31 / 7
            float expected = 31f / 7f;
            assertThat(windows.embed(List.of("hello world code", "java"), TextRole.DOCUMENT).get(0))
                    .containsExactly(new float[] {expected, 1f, -expected}, within(1e-6f));
            assertThat(windows.modelId()).isEqualTo("embedder/mean/4/windows/unnormalized");
            assertThat(truncate.modelId()).isEqualTo("embedder/mean/4/unnormalized");
        }
    }

    @Test
    void emptyInputsGiveEmptyOutputAndEmptyTextsStillEmbed() {
        try (OnnxEmbedder e = tiny().build()) {
            assertThat(e.embed(List.of(), TextRole.DOCUMENT)).isEmpty();
            assertThat(e.embed(List.of(""), TextRole.DOCUMENT).get(0)).containsExactly(2.5f, 1f, -2.5f);
        }
    }

    @Test
    void loadsFromAUserSuppliedDirectoryAndReadsItsSentenceBertConfig(@TempDir Path dir) throws IOException {
        copy("tiny/embedder.onnx", dir.resolve("model.onnx"));
        copy("tiny/tokenizer.json", dir.resolve("tokenizer.json"));
        Files.writeString(dir.resolve("sentence_bert_config.json"), "{\n  \"max_seq_length\": 4,\n"
                + "  \"do_lower_case\": false\n}\n");
        try (OnnxEmbedder e = OnnxEmbedder.builder().modelFile(dir.resolve("model.onnx"))
                .tokenizerFile(dir.resolve("tokenizer.json")).normalize(false).build()) {
            assertThat(e.maxSequenceLength()).isEqualTo(4);
            assertThat(e.modelId()).isEqualTo("model/mean/4/unnormalized");
            assertThat(e.embed(List.of("hello world"), TextRole.DOCUMENT).get(0)).containsExactly(4f, 1f, -4f);
        }
    }

    @Test
    void loadErrorsNameTheFileAndTheProblem(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("nope.onnx");
        assertThatThrownBy(() -> OnnxEmbedder.builder().modelFile(missing).tokenizerResource("tiny/tokenizer.json")
                .build()).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("not found");
        assertThatThrownBy(() -> OnnxEmbedder.builder().modelResource("tiny/embedder.onnx")
                .tokenizerFile(dir.resolve("tokenizer.json")).build())
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("tokenizer.json").hasMessageContaining("not found");
        assertThatThrownBy(() -> OnnxEmbedder.builder().modelResource("tiny/no-input-ids.onnx")
                .tokenizerResource("tiny/tokenizer.json").build())
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("tiny/no-input-ids.onnx").hasMessageContaining("'input_ids'");
        assertThatThrownBy(() -> OnnxEmbedder.builder().modelResource("tiny/rank2-output.onnx")
                .tokenizerResource("tiny/tokenizer.json").build())
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("tiny/rank2-output.onnx").hasMessageContaining("rank 3, got rank 2");
        Path garbage = dir.resolve("garbage.onnx");
        Files.writeString(garbage, "not a model");
        assertThatThrownBy(() -> OnnxEmbedder.builder().modelFile(garbage).tokenizerResource("tiny/tokenizer.json")
                .build()).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining(garbage.toString()).hasCauseInstanceOf(ai.onnxruntime.OrtException.class);
        Path badTokenizer = dir.resolve("bad-tokenizer.json");
        Files.writeString(badTokenizer, "{\"version\": \"1.0\"}");
        assertThatThrownBy(() -> OnnxEmbedder.builder().modelResource("tiny/embedder.onnx")
                .tokenizerFile(badTokenizer).build()).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining(badTokenizer.toString());
    }

    @Test
    void callerMistakesAreRejected() {
        assertThatThrownBy(() -> OnnxEmbedder.builder().batchSize(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batchSize").hasMessageContaining("0");
        assertThatThrownBy(() -> OnnxEmbedder.builder().tokenizerResource("tiny/tokenizer.json").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("model");
        try (OnnxEmbedder e = tiny().build()) {
            assertThatThrownBy(() -> e.embed(java.util.Arrays.asList("a", null), TextRole.DOCUMENT))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("texts[1]");
        }
    }

    @Test
    void parallelBatchStreamsAndConcurrentCallersGiveTheSameVectors() throws Exception {
        List<String> texts = List.of("java", "hello world java strings code", "code", "", "search search hello",
                "world", "string code java hello", "hello");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try (OnnxEmbedder sequential = tiny().parallelism(1).batchSize(1).build();
                OnnxEmbedder parallel = tiny().parallelism(3).batchSize(1).executor(pool).maxConcurrentBatches(2)
                        .build()) {
            List<float[]> expected = sequential.embed(texts, TextRole.DOCUMENT);
            assertThat(expected.get(1)).containsExactly(6.25f, 1f, -6.25f);
            List<java.util.concurrent.Future<List<float[]>>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(pool.submit(() -> parallel.embed(texts, TextRole.DOCUMENT)));
            }
            calls.add(java.util.concurrent.CompletableFuture.completedFuture(parallel.embed(texts, TextRole.DOCUMENT)));
            for (java.util.concurrent.Future<List<float[]>> call : calls) {
                List<float[]> got = call.get();
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(got.get(i)).as(texts.get(i)).containsExactly(expected.get(i));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void usingAClosedEmbedderFails() {
        OnnxEmbedder e = tiny().build();
        e.close();
        e.close();
        assertThatThrownBy(() -> e.embed(List.of("hello"), TextRole.DOCUMENT))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    static void copy(String resource, Path target) throws IOException {
        try (InputStream in = OnnxEmbedderTinyModelTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
    }
}
