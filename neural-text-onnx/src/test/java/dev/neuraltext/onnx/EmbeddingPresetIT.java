package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15.BgeSmallEnV15EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2.E5SmallV2EmbeddingModel;
import dev.neuraltext.encode.TextRole;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every {@link EmbeddingPreset} against LangChain4j's own model class for the same artifact, an independent
 * implementation: the same pooling (bge: CLS, the others: mean) and, with the preset's prefix put in front of the text
 * by hand, the same query and document vectors. Slow: loads each model twice.
 */
class EmbeddingPresetIT {

    private static final List<String> TEXTS = List.of(
            "The cat sits on the mat.",
            "how long do we wait before trying again",
            "StringUtils.isBlank checks whether a string is empty or whitespace",
            "public static boolean isEmpty(CharSequence cs) { return cs == null || cs.length() == 0; }");

    private static Supplier<EmbeddingModel> reference(EmbeddingPreset preset) {
        return switch (preset) {
            case ALL_MINILM_L6_V2 -> AllMiniLmL6V2EmbeddingModel::new;
            case ALL_MINILM_L6_V2_Q -> AllMiniLmL6V2QuantizedEmbeddingModel::new;
            case BGE_SMALL_EN_V15 -> BgeSmallEnV15EmbeddingModel::new;
            case BGE_SMALL_EN_V15_Q -> BgeSmallEnV15QuantizedEmbeddingModel::new;
            case E5_SMALL_V2 -> E5SmallV2EmbeddingModel::new;
        };
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int k = 0; k < a.length; k++) {
            s += (double) a[k] * b[k];
        }
        return s;
    }

    @ParameterizedTest
    @EnumSource(EmbeddingPreset.class)
    void agreesWithLangChain4jWithThePresetsPrefixes(EmbeddingPreset preset) {
        EmbeddingModel theirs = reference(preset).get();
        try (OnnxEmbedder ours = OnnxEmbedder.preset(preset)) {
            assertThat(ours.dimension()).isEqualTo(384).isEqualTo(theirs.dimension());
            assertThat(ours.modelId()).startsWith(preset.modelName() + "/"
                    + preset.pooling().name().toLowerCase(java.util.Locale.ROOT) + "/256");
            List<float[]> batched = ours.embed(TEXTS, TextRole.DOCUMENT);
            for (int i = 0; i < TEXTS.size(); i++) {
                // one text per call, as LangChain4j runs them: an int8 model quantises activations per call, so a
                // batch (other texts, padding) shifts its vectors slightly
                String text = TEXTS.get(i);
                float[] doc = theirs.embed(TextSegment.from(preset.documentPrefix() + text)).content().vector();
                float[] query = theirs.embed(TextSegment.from(preset.queryPrefix() + text)).content().vector();
                assertThat(ours.embed(List.of(text), TextRole.DOCUMENT).get(0)).as("%s document '%s'", preset, text)
                        .containsExactly(doc, within(2e-5f));
                assertThat(ours.embed(List.of(text), TextRole.QUERY).get(0)).as("%s query '%s'", preset, text)
                        .containsExactly(query, within(2e-5f));
                assertThat(dot(batched.get(i), doc)).as("%s batched document '%s'", preset, text)
                        .isGreaterThan(preset.name().endsWith("_Q") ? 0.98 : 0.99999);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = EmbeddingPreset.class, names = {"BGE_SMALL_EN_V15", "E5_SMALL_V2"})
    void prefixedModelsEmbedQueriesAndDocumentsDifferently(EmbeddingPreset preset) {
        try (OnnxEmbedder ours = OnnxEmbedder.preset(preset)) {
            float[] q = ours.embed(List.of(TEXTS.get(1)), TextRole.QUERY).get(0);
            float[] d = ours.embed(List.of(TEXTS.get(1)), TextRole.DOCUMENT).get(0);
            assertThat(dot(q, d)).isLessThan(0.999);
            assertThat(ours.modelId()).endsWith("/prefixed");
        }
    }
}
