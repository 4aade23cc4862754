package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.encode.TextRole;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link OnnxSpladeEncoder} on {@code tiny/splade.onnx} (see {@code src/test/python/make_tiny_models.py}). Weights
 * per token: a word token i gives term i weight 2 and term i + 1 weight 1; [CLS] gives term 4 weight 0.5; [SEP] and
 * [UNK] give nothing; [PAD] would give every term log(51) and a type-1 token would shift all its logits by 100.
 * Ids: hello 5, world 6, java 7, string 8, ##s 9, code 10, search 11.
 */
class OnnxSpladeEncoderTest {

    private static OnnxSpladeEncoder.Builder tiny() {
        return OnnxSpladeEncoder.builder().modelResource("tiny/splade.onnx").tokenizerResource("tiny/tokenizer.json");
    }

    private static void assertVector(SparseVector v, int[] indices, float[] values) {
        assertThat(v.indices()).containsExactly(indices);
        assertThat(v.values()).containsExactly(values, within(1e-6f));
    }

    @Test
    void maxPoolsLogOnePlusReluOverTheTokens() {
        try (OnnxSpladeEncoder e = tiny().build()) {
            assertThat(e.vocabularySize()).isEqualTo(12);
            // [CLS] hello world [SEP]: 4 -> 0.5, 5 -> 2, 6 -> max(1, 2), 7 -> 1
            assertVector(e.encode(List.of("hello world"), TextRole.DOCUMENT).get(0),
                    new int[] {4, 5, 6, 7}, new float[] {0.5f, 2f, 2f, 1f});
            // search (11) wraps around to term 0: weight 1 on [PAD]'s id
            assertVector(e.encode(List.of("search"), TextRole.QUERY).get(0),
                    new int[] {0, 4, 11}, new float[] {1f, 0.5f, 2f});
            // an unknown word adds nothing
            assertVector(e.encode(List.of("banana"), TextRole.QUERY).get(0), new int[] {4}, new float[] {0.5f});
        }
    }

    @Test
    void batchingAndPaddingDoNotChangeTheVectors() {
        try (OnnxSpladeEncoder e = tiny().batchSize(2).build()) {
            List<SparseVector> batch = e.encode(List.of("java", "hello world java strings code", "code", "java"),
                    TextRole.DOCUMENT);
            assertVector(batch.get(0), new int[] {4, 7, 8}, new float[] {0.5f, 2f, 1f});
            assertVector(batch.get(1), new int[] {4, 5, 6, 7, 8, 9, 10, 11},
                    new float[] {0.5f, 2f, 2f, 2f, 2f, 2f, 2f, 1f});
            assertVector(batch.get(2), new int[] {4, 10, 11}, new float[] {0.5f, 2f, 1f});
            assertThat(batch.get(3)).isEqualTo(batch.get(0));
            assertThat(e.encode(List.of("code"), TextRole.DOCUMENT).get(0)).isEqualTo(batch.get(2));
        }
    }

    @Test
    void prunesByThresholdThenTopKPerSide() {
        try (OnnxSpladeEncoder e = tiny().documentTopK(2).minWeight(0.5).build()) {
            // min weight 0.5 drops [CLS]'s 0.5; top-2 of {5: 2, 6: 2, 7: 1} keeps 5 and 6
            assertVector(e.encode(List.of("hello world"), TextRole.DOCUMENT).get(0),
                    new int[] {5, 6}, new float[] {2f, 2f});
            // queries are not capped by default
            assertVector(e.encode(List.of("hello world"), TextRole.QUERY).get(0),
                    new int[] {5, 6, 7}, new float[] {2f, 2f, 1f});
        }
        try (OnnxSpladeEncoder e = tiny().queryTopK(1).build()) {
            // a tie between terms 5 and 6 goes to the lower id
            assertVector(e.encode(List.of("hello world"), TextRole.QUERY).get(0), new int[] {5}, new float[] {2f});
            assertThat(e.modelId()).isEqualTo("splade/splade/512/q1/d256");
        }
    }

    @Test
    void longInputsTruncateOrMaxPoolWindows() {
        try (OnnxSpladeEncoder truncate = tiny().maxSequenceLength(4).build();
                OnnxSpladeEncoder windows = tiny().maxSequenceLength(4).longInputPolicy(LongInputPolicy.WINDOWS)
                        .build()) {
            assertVector(truncate.encode(List.of("hello world code"), TextRole.DOCUMENT).get(0),
                    new int[] {4, 5, 6, 7}, new float[] {0.5f, 2f, 2f, 1f});
            assertVector(windows.encode(List.of("hello world code"), TextRole.DOCUMENT).get(0),
                    new int[] {4, 5, 6, 7, 10, 11}, new float[] {0.5f, 2f, 2f, 1f, 2f, 1f});
        }
    }

    @Test
    void aSeparateQueryModelIsUsedForQueriesOnly() {
        try (OnnxSpladeEncoder e = tiny().queryModelResource(null, "tiny/splade.onnx").build()) {
            assertThat(e.encode(List.of("java"), TextRole.QUERY))
                    .isEqualTo(e.encode(List.of("java"), TextRole.DOCUMENT));
        }
    }

    @Test
    void rejectsAModelWhoseVocabularyDiffersFromTheTokenizers() {
        assertThatThrownBy(() -> OnnxSpladeEncoder.builder().modelResource("tiny/splade-vocab13.onnx")
                .tokenizerResource("tiny/tokenizer.json").build())
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("vocabulary mismatch").hasMessageContaining("tiny/splade-vocab13.onnx")
                .hasMessageContaining("13").hasMessageContaining("12");
        assertThatThrownBy(() -> OnnxSpladeEncoder.builder().modelResource("tiny/embedder.onnx")
                .tokenizerResource("tiny/tokenizer.json").build())
                .isInstanceOf(NonRetriableNeuralTextException.class).hasMessageContaining("vocabulary mismatch");
    }
}
