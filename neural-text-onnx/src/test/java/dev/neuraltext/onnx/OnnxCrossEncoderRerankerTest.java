package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.NonRetriableNeuralTextException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OnnxCrossEncoderReranker} on {@code tiny/cross-encoder.onnx} (see
 * {@code src/test/python/make_tiny_models.py}): logit = sum over real tokens of (A[id] + 0.25 * token type), with
 * A = 0 for special tokens, hello 0.1, world 0.2, java 0.3, string 0.4, ##s 0.5, code 0.6, search 0.7, and [PAD] 100
 * (padding that leaks shows).
 */
class OnnxCrossEncoderRerankerTest {

    private static OnnxCrossEncoderReranker.Builder tiny() {
        return OnnxCrossEncoderReranker.builder().modelResource("tiny/cross-encoder.onnx")
                .tokenizerResource("tiny/tokenizer.json");
    }

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    @Test
    void encodesQueryAndPassageAsOnePairWithTokenTypes() {
        try (OnnxCrossEncoderReranker r = tiny().build()) {
            // [CLS] hello [SEP] | java [SEP] (type 1): 0.1 + (0.3 + 0.25) + (0 + 0.25)
            assertThat(r.logits("hello", List.of("java"))[0]).containsExactly(new double[] {0.9}, within(1e-6));
            assertThat(r.score("hello", List.of("java"))[0]).isCloseTo(sigmoid(0.9), within(1e-6));
        }
    }

    @Test
    void batchesKeepThePassageOrderAndIgnorePadding() {
        try (OnnxCrossEncoderReranker r = tiny().batchSize(2).build()) {
            double[] scores = r.score("hello", List.of("java", "search code strings", "", "java"));
            // search code string ##s = 0.7 + 0.6 + 0.4 + 0.5, plus 0.25 for each of the 5 type-1 tokens, plus 0.1
            // empty passage: 0.1 + 0.25 for the final [SEP]
            assertThat(scores).containsExactly(new double[] {sigmoid(0.9), sigmoid(3.55), sigmoid(0.35),
                sigmoid(0.9)}, within(1e-6));
            assertThat(java.util.Arrays.stream(scores).allMatch(s -> s >= 0 && s <= 1)).isTrue();
            assertThat(r.score("hello", List.of())).isEmpty();
        }
    }

    @Test
    void truncatesThePairLongestFirstToTheMaximumLength() {
        try (OnnxCrossEncoderReranker r = tiny().maxSequenceLength(6).build()) {
            // 3 specials + hello + (java code search world): the passage loses its last 2 tokens
            // 0.1 + (0.3 + 0.6) + 0.25 * 3
            assertThat(r.logits("hello", List.of("java code search world"))[0])
                    .containsExactly(new double[] {1.75}, within(1e-6));
            assertThat(r.modelId()).isEqualTo("cross-encoder/cross-encoder/6");
        }
    }

    @Test
    void loadErrorsNameTheFile(@TempDir Path dir) {
        Path missing = dir.resolve("reranker.onnx");
        assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder().modelFile(missing)
                .tokenizerResource("tiny/tokenizer.json").build())
                .isInstanceOf(NonRetriableNeuralTextException.class).hasMessageContaining(missing.toString());
        assertThatThrownBy(() -> OnnxCrossEncoderReranker.builder().modelResource("tiny/splade.onnx")
                .tokenizerResource("tiny/tokenizer.json").build())
                .isInstanceOf(NonRetriableNeuralTextException.class).hasMessageContaining("rank 2, got rank 3");
    }
}
