package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EmbeddingPresetTest {

    @Test
    void idsAreUniqueAndResolveCaseInsensitively() {
        Set<String> names = new HashSet<>();
        for (EmbeddingPreset p : EmbeddingPreset.values()) {
            assertThat(EmbeddingPreset.byId(p.id().toUpperCase(java.util.Locale.ROOT))).isSameAs(p);
            assertThat(names.add(p.modelName())).as("model name of %s is unique", p).isTrue();
            assertThat(p.artifact()).startsWith("dev.langchain4j:langchain4j-embeddings-");
            assertThat(p.modelResource()).endsWith(".onnx");
            assertThat(p.tokenizerResource()).endsWith("-tokenizer.json");
        }
    }

    @Test
    void eachPresetNamesTheJarItsModelIsIn() {
        // every preset artifact is an (optional) dependency of this module, so all are on the test class path
        for (EmbeddingPreset p : EmbeddingPreset.values()) {
            assertThat(p.onClassPath()).as(p.id()).isTrue();
            String[] gav = p.artifact().split(":");
            assertThat(p.jarName()).isEqualTo(gav[1] + "-" + gav[2] + ".jar");
            java.net.URL model = EmbeddingPreset.class.getClassLoader().getResource(p.modelResource());
            assertThat(model.toString()).as(p.id()).startsWith("jar:").endsWith("/" + p.jarName() + "!/"
                    + p.modelResource());
        }
    }

    @Test
    void poolingAndPrefixesAreTheModelsOwn() {
        assertThat(EmbeddingPreset.BGE_SMALL_EN_V15.pooling()).isEqualTo(OnnxEmbedder.Pooling.CLS);
        assertThat(EmbeddingPreset.BGE_SMALL_EN_V15.queryPrefix())
                .isEqualTo("Represent this sentence for searching relevant passages: ");
        assertThat(EmbeddingPreset.BGE_SMALL_EN_V15.documentPrefix()).isEmpty();
        assertThat(EmbeddingPreset.E5_SMALL_V2.pooling()).isEqualTo(OnnxEmbedder.Pooling.MEAN);
        assertThat(EmbeddingPreset.E5_SMALL_V2.queryPrefix()).isEqualTo("query: ");
        assertThat(EmbeddingPreset.E5_SMALL_V2.documentPrefix()).isEqualTo("passage: ");
        assertThat(EmbeddingPreset.ALL_MINILM_L6_V2.queryPrefix()).isEmpty();
    }

    @Test
    void theModelIdOfAnIndexNamesItsPreset() {
        assertThat(EmbeddingPreset.forModelId("all-MiniLM-L6-v2/mean/256")).contains(EmbeddingPreset.ALL_MINILM_L6_V2);
        assertThat(EmbeddingPreset.forModelId("all-MiniLM-L6-v2-q/mean/256"))
                .contains(EmbeddingPreset.ALL_MINILM_L6_V2_Q);
        assertThat(EmbeddingPreset.forModelId("bge-small-en-v1.5-q/cls/256/prefixed"))
                .contains(EmbeddingPreset.BGE_SMALL_EN_V15_Q);
        assertThat(EmbeddingPreset.forModelId("my-model/mean/512")).isEmpty();
    }

    @Test
    void unknownIdNamesTheValueAndTheChoices() {
        assertThatThrownBy(() -> EmbeddingPreset.byId("bert-huge"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bert-huge'")
                .hasMessageContaining("bge-small-en-v1.5")
                .hasMessageContaining("e5-small-v2");
        assertThatThrownBy(() -> EmbeddingPreset.byId(null)).isInstanceOf(NullPointerException.class);
    }
}
