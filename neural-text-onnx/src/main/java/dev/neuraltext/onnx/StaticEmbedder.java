package dev.neuraltext.onnx;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.internal.Checks;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A static dense {@link Embedder}: one vector per word piece, no neural network at index or query time. A text is
 * split into word pieces by the teacher model's own {@code tokenizer.json}, and its vector is the L2-normalised sum
 * of its word pieces' rows (each row already carries its token's weight); a text with no known word piece gets the
 * zero vector. Queries and documents are embedded alike. Every word piece counts: there is no length limit.
 *
 * <p>{@link #bundled()} loads the model shipped in the artifact {@value #BUNDLED_ARTIFACT} (an optional dependency
 * of this module: add it to use the bundled model; the {@code neural-text} tool includes it):
 * {@value #BUNDLED_MODEL_NAME}, distilled from
 * bge-small-en-v1.5 (int8) by {@code tools/static-model/distill.sh} (model2vec's method, then a tokenlearn-style fit to
 * the teacher's embeddings of code and docs; the model card is {@code tools/static-model/README.md}): 30,522 rows of
 * {@value #BUNDLED_DIMENSION} int8 values with one scale each. {@link #load(Path)} reads a model file of the same
 * format made by that tool. Embedding costs one table look-up per word piece: no matrix products. The rows of the
 * word pieces met so far are kept as floats for speed, so memory grows with the vocabulary in use, up to four times
 * the int8 table (31 MB for the bundled model).
 *
 * <p>Tokenisation: a BERT WordPiece {@code tokenizer.json} (the bundled model's, and any with normalizer
 * {@code BertNormalizer}, pre-tokenizer {@code BertPreTokenizer} and model {@code WordPiece}) runs in pure Java with
 * the same ids as the native Hugging Face tokenizer; any other tokenizer.json is loaded into the native tokenizer
 * (DJL), several times slower (logged once at INFO when the model loads).
 *
 * <p>Thread safety: safe for concurrent use; the model is immutable. The creator {@link #close()}s it (which frees
 * the native tokenizer, if one is used); using it after close throws {@link IllegalStateException}.
 */
public final class StaticEmbedder implements Embedder, AutoCloseable {

    /** The name of the bundled model (the start of its {@link #modelId()}). */
    public static final String BUNDLED_MODEL_NAME = "bge-small-static-code-256";
    /** The dimension of the bundled model. */
    public static final int BUNDLED_DIMENSION = 256;
    /** The classpath resource of the bundled model. */
    public static final String BUNDLED_RESOURCE = "dev/neuraltext/onnx/static/" + BUNDLED_MODEL_NAME + ".ntsm";
    /** The Maven coordinates ({@code groupId:artifactId}, same version as this module) of the jar holding it. */
    public static final String BUNDLED_ARTIFACT = "dev.neuraltext:neural-text-static-model";

    private static final Logger LOG = LoggerFactory.getLogger(StaticEmbedder.class);

    /**
     * Which tokenizer runs a model's tokenizer.json. Internal: {@link #bundled()} and {@link #load(Path)} choose
     * {@link #JAVA_IF_SUPPORTED}; tests ask for the native one to compare.
     */
    enum Tokenization {
        /** The pure-Java WordPiece tokenizer when the tokenizer.json allows it, else the native one. */
        JAVA_IF_SUPPORTED,
        /** Always the native (DJL) tokenizer. */
        NATIVE
    }

    private final StaticModelFile model;
    /** Exactly one of the two tokenizers is set. */
    private final WordPieceTokenizer javaTokenizer;
    private final ModelTokenizer nativeTokenizer;
    private final String modelId;
    /** The rows of the word pieces seen so far as floats (scale applied), filled on first use. */
    private final ScaledRow[] scaledRows;
    private volatile boolean closed;

    private StaticEmbedder(StaticModelFile model, String source, Tokenization tokenization) {
        this.model = model;
        String tokenizerSource = source + " (its tokenizer)";
        WordPieceTokenizer java = null;
        if (tokenization == Tokenization.JAVA_IF_SUPPORTED) {
            try {
                java = WordPieceTokenizer.fromJson(model.tokenizerJson(), tokenizerSource);
            } catch (WordPieceTokenizer.UnsupportedTokenizerException e) {
                LOG.info("{}; using the native tokenizer (DJL) instead", e.getMessage());
            }
        }
        this.javaTokenizer = java;
        this.nativeTokenizer = java == null ? ModelTokenizer.load(model.tokenizerJson(), tokenizerSource, 0) : null;
        int vocabSize = java != null ? java.vocabSize() : nativeTokenizer.vocabSize();
        if (vocabSize > model.vocabularySize()) {
            close();
            throw new NonRetriableNeuralTextException("static model file " + source + " has " + model.vocabularySize()
                    + " rows but its tokenizer produces ids up to " + (vocabSize - 1), null);
        }
        this.modelId = model.name() + "/static/" + model.dimension() + "/" + model.sha256().substring(0, 12);
        this.scaledRows = new ScaledRow[model.vocabularySize()];
    }

    /**
     * The bundled model ({@value #BUNDLED_MODEL_NAME}, {@value #BUNDLED_DIMENSION} dimensions) from the classpath
     * resource {@value #BUNDLED_RESOURCE} of the artifact {@value #BUNDLED_ARTIFACT}.
     *
     * @throws NonRetriableNeuralTextException naming the artifact to add if the resource is not on the class path,
     *                                         or if it is damaged
     */
    public static StaticEmbedder bundled() {
        return bundled(Tokenization.JAVA_IF_SUPPORTED);
    }

    /** {@link #bundled()} with the given tokenizer choice. */
    static StaticEmbedder bundled(Tokenization tokenization) {
        return bundled(StaticEmbedder.class.getClassLoader(), tokenization);
    }

    /** {@link #bundled()} from the class path of {@code loader}. */
    static StaticEmbedder bundled(ClassLoader loader, Tokenization tokenization) {
        byte[] bytes;
        try (InputStream in = loader.getResourceAsStream(BUNDLED_RESOURCE)) {
            if (in == null) {
                throw new NonRetriableNeuralTextException("the static model resource " + BUNDLED_RESOURCE
                        + " is not on the class path: add the Maven artifact " + BUNDLED_ARTIFACT + " (the version of"
                        + " neural-text-onnx) to your build, or load a model file with StaticEmbedder.load(path)", null);
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot read the static model resource " + BUNDLED_RESOURCE
                    + ": " + e, e);
        }
        String source = "classpath:" + BUNDLED_RESOURCE;
        return new StaticEmbedder(StaticModelFile.parse(bytes, source), source, tokenization);
    }

    /**
     * A static model from {@code file} (the {@code .ntsm} format written by {@code tools/static-model/distill.sh}).
     *
     * @throws NullPointerException if {@code file} is null
     * @throws NonRetriableNeuralTextException naming the path if the file is missing, unreadable, truncated, corrupt
     *                                         or not a static model
     */
    public static StaticEmbedder load(Path file) {
        return load(file, Tokenization.JAVA_IF_SUPPORTED);
    }

    /** {@link #load(Path)} with the given tokenizer choice. */
    static StaticEmbedder load(Path file, Tokenization tokenization) {
        Checks.notNull(file, "file");
        Path path = file.toAbsolutePath();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new NonRetriableNeuralTextException("static model file not found: " + path, e);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot read static model file " + path + ": " + e, e);
        }
        return new StaticEmbedder(StaticModelFile.parse(bytes, path.toString()), path.toString(), tokenization);
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    /** {@code <model name>/static/<dimension>/<first 12 hex digits of the file's SHA-256>}. */
    @Override
    public String modelId() {
        return modelId;
    }

    /** The SHA-256 of the model file, in lower-case hex. */
    public String sha256() {
        return model.sha256();
    }

    /**
     * Embeds {@code texts}; {@code role} makes no difference to a static model.
     *
     * @throws NullPointerException if {@code texts}, an element or {@code role} is null
     * @throws IllegalStateException if the embedder is closed
     */
    @Override
    public List<float[]> embed(List<String> texts, TextRole role) {
        Checks.notNull(texts, "texts");
        Checks.notNull(role, "role");
        for (int i = 0; i < texts.size(); i++) {
            if (texts.get(i) == null) {
                throw new NullPointerException("texts[" + i + "] must not be null");
            }
        }
        float[][] out = new float[texts.size()][];
        // A call of many texts is spread over the common fork-join pool (the cores the JVM sees), as the ONNX
        // embedders spread a batch over their intra-op threads; a few texts are cheaper on the calling thread.
        IntStream range = IntStream.range(0, texts.size());
        (texts.size() >= PARALLEL_THRESHOLD ? range.parallel() : range)
                .forEach(i -> out[i] = embedIds(contentIds(texts.get(i))));
        return Arrays.asList(out);
    }

    /** The word-piece ids of {@code text}, without special tokens. */
    int[] contentIds(String text) {
        if (javaTokenizer == null) {
            long[] ids = nativeTokenizer.contentIds(text);
            int[] out = new int[ids.length];
            for (int i = 0; i < ids.length; i++) {
                out[i] = (int) ids[i];
            }
            return out;
        }
        if (closed) {
            throw new IllegalStateException("static embedder " + modelId + " is closed");
        }
        return javaTokenizer.contentIds(text);
    }

    /** The row of word piece {@code id} times its scale, as floats: made on first use and kept. */
    private float[] scaledRow(int id) {
        ScaledRow row = scaledRows[id];
        if (row == null) {
            int dim = model.dimension();
            float s = model.scales()[id];
            byte[] rows = model.rows();
            float[] values = new float[dim];
            for (int d = 0, base = id * dim; d < dim; d++) {
                values[d] = s * rows[base + d];
            }
            // A record's final field publishes the filled array safely to other threads; a race makes it twice.
            row = new ScaledRow(values);
            scaledRows[id] = row;
        }
        return row.values();
    }

    /** One word piece's row, scaled, as floats. */
    private record ScaledRow(float[] values) {
    }

    /** Whether this embedder tokenises in pure Java (false: the native tokenizer). */
    boolean tokenizesInJava() {
        return javaTokenizer != null;
    }

    /** Calls with at least this many texts are embedded in parallel. */
    private static final int PARALLEL_THRESHOLD = 64;

    /** The normalised sum of the rows of {@code ids} (ids outside the table are skipped). */
    float[] embedIds(int[] ids) {
        float[] scales = model.scales();
        float[] v = new float[model.dimension()];
        for (int id : ids) {
            if (id < 0 || id >= scales.length || scales[id] == 0f) {
                continue;
            }
            float[] row = scaledRow(id);
            // Same index on both sides: the JIT adds these in SIMD lanes (an int8 row it would convert one by one).
            for (int d = 0; d < v.length; d++) {
                v[d] += row[d];
            }
        }
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        if (norm > 0) {
            float inv = (float) (1.0 / Math.sqrt(norm));
            for (int d = 0; d < v.length; d++) {
                v[d] *= inv;
            }
        }
        return v;
    }

    /** Releases the native tokenizer, if one is used. Idempotent. */
    @Override
    public void close() {
        closed = true;
        if (nativeTokenizer != null) {
            nativeTokenizer.close();
        }
    }

    @Override
    public String toString() {
        return "StaticEmbedder{" + modelId + ", vocabulary=" + model.vocabularySize() + ", tokenizer="
                + (javaTokenizer != null ? "java-wordpiece" : "native") + "}";
    }
}
