package dev.neuraltext.onnx;

import dev.neuraltext.encode.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Every dense model neural-text can load by name: the {@link EmbeddingPreset}s (transformers on ONNX Runtime) and
 * {@value #STATIC_CODE}, the bundled {@link StaticEmbedder}. For command lines and configuration files that take a
 * model name; programs can as well call {@link OnnxEmbedder#preset} or {@link StaticEmbedder#bundled()} directly.
 * Stateless and thread-safe.
 */
public final class DenseModels {

    /** The id of the bundled static model ({@link StaticEmbedder#bundled()}). */
    public static final String STATIC_CODE = "static-code";

    private DenseModels() {
    }

    /** Every id: the {@link EmbeddingPreset} ids in declaration order, then {@value #STATIC_CODE}. */
    public static List<String> ids() {
        List<String> ids = new ArrayList<>(EmbeddingPreset.ids());
        ids.add(STATIC_CODE);
        return List.copyOf(ids);
    }

    /**
     * {@code id} in canonical form (trimmed, lower case).
     *
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException naming the value and the known ids if there is no such model
     */
    public static String checkId(String id) {
        Objects.requireNonNull(id, "id");
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        if (wanted.equals(STATIC_CODE)) {
            return STATIC_CODE;
        }
        if (EmbeddingPreset.ids().contains(wanted)) {
            return wanted;
        }
        throw new IllegalArgumentException("unknown dense model preset '" + id + "'; known: "
                + String.join(", ", ids()));
    }

    /**
     * Loads the model {@code id}: an {@link OnnxEmbedder} for an {@link EmbeddingPreset}, a {@link StaticEmbedder}
     * for {@value #STATIC_CODE}. Both are {@link AutoCloseable}; the caller closes the embedder.
     *
     * @throws IllegalArgumentException if {@code id} is unknown (see {@link #checkId})
     * @throws dev.neuraltext.NonRetriableNeuralTextException if the model's resources are missing or cannot be loaded
     */
    public static Embedder load(String id) {
        String known = checkId(id);
        return known.equals(STATIC_CODE) ? StaticEmbedder.bundled() : OnnxEmbedder.preset(EmbeddingPreset.byId(known));
    }

    /**
     * The id of the model an embedder with {@link Embedder#modelId()} {@code modelId} was loaded as (for instance
     * from an index fingerprint), if it is one of these.
     *
     * @throws NullPointerException if {@code modelId} is null
     */
    public static Optional<String> forModelId(String modelId) {
        Objects.requireNonNull(modelId, "modelId");
        if (modelId.startsWith(StaticEmbedder.BUNDLED_MODEL_NAME + "/static/")) {
            return Optional.of(STATIC_CODE);
        }
        return EmbeddingPreset.forModelId(modelId).map(EmbeddingPreset::id);
    }
}
