package dev.neuraltext.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.Reranker;
import dev.neuraltext.internal.Checks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A cross-encoder {@link Reranker} on ONNX Runtime: each (query, passage) pair is encoded together with the
 * tokenizer's pair template ({@code [CLS] query [SEP] passage [SEP]}, token type 0 then 1, truncated longest-first
 * to the maximum length), and the model (inputs {@code input_ids}, {@code attention_mask}, optional
 * {@code token_type_ids}; output {@code logits} {@code [batch, 1]} or {@code [batch, 2]}) gives one logit per pair.
 *
 * <p>{@link #score} maps logits to [0, 1] as the {@link Reranker} contract requires: the sigmoid of a single logit, or
 * the softmax probability of label 1 for two-label models (which equals {@code sigmoid(l1 - l0)}). {@link #logits}
 * returns the raw values.
 *
 * <p>Thread safety: safe for concurrent use; threads share one session. The creator owns the reranker and must
 * {@link #close()} it.
 */
public final class OnnxCrossEncoderReranker implements Reranker, AutoCloseable {

    private final OnnxModel model;
    private final ModelTokenizer tokenizer;
    private final int batchSize;
    private final String modelId;

    private OnnxCrossEncoderReranker(OnnxModel model, ModelTokenizer tokenizer, int batchSize, String modelId) {
        this.model = model;
        this.tokenizer = tokenizer;
        this.batchSize = batchSize;
        this.modelId = modelId;
    }

    /** A builder; see {@link Builder} for the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** {@code <model name>/cross-encoder/<max length>}. */
    @Override
    public String modelId() {
        return modelId;
    }

    /**
     * Scores every passage against the query in length-sorted batches.
     *
     * @return one score in [0, 1] per passage, in the order of {@code passages}
     * @throws IllegalArgumentException if {@code query}, {@code passages} or an element is null
     * @throws NonRetriableNeuralTextException if tokenization or ONNX Runtime fails (cause attached)
     */
    @Override
    public double[] score(String query, List<String> passages) {
        double[][] logits = logits(query, passages);
        double[] scores = new double[logits.length];
        for (int i = 0; i < logits.length; i++) {
            double[] l = logits[i];
            scores[i] = l.length == 1 ? sigmoid(l[0]) : sigmoid(l[1] - l[0]);
        }
        return scores;
    }

    /**
     * The raw logits of every (query, passage) pair: one or two values per passage, in the order of {@code passages}.
     */
    public double[][] logits(String query, List<String> passages) {
        Checks.notNull(query, "query");
        Checks.notNull(passages, "passages");
        List<Sequences.Unit> units = new ArrayList<>(passages.size());
        for (int i = 0; i < passages.size(); i++) {
            String passage = passages.get(i);
            if (passage == null) {
                throw new NullPointerException("passages[" + i + "] must not be null");
            }
            Encoding e = tokenizer.encodePair(query, passage);
            units.add(new Sequences.Unit(i, e.getIds(), e.getTypeIds()));
        }
        double[][] logits = new double[passages.size()][];
        Sequences.run(model, tokenizer.padId(), units, batchSize, (batch, out) -> {
            long[] shape = out.shape();
            int labels = (int) shape[1];
            if (labels != 1 && labels != 2) {
                throw new NonRetriableNeuralTextException("cross-encoder " + model.source() + " returned "
                        + labels + " logits per pair (shape " + Arrays.toString(shape) + "), expected 1 or 2", null);
            }
            for (int b = 0; b < batch.length; b++) {
                double[] l = new double[labels];
                for (int k = 0; k < labels; k++) {
                    l[k] = out.data().get(b * labels + k);
                }
                logits[units.get(batch[b]).owner()] = l;
            }
        });
        return logits;
    }

    static double sigmoid(double x) {
        return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
    }

    /** Releases the session and the native tokenizer. Idempotent. */
    @Override
    public void close() {
        try {
            model.close();
        } finally {
            tokenizer.close();
        }
    }

    @Override
    public String toString() {
        return "OnnxCrossEncoderReranker{" + modelId + ", model=" + model.source() + "}";
    }

    /**
     * Configures an {@link OnnxCrossEncoderReranker}. Required: a model and a tokenizer. Defaults:
     * {@code maxSequenceLength} = 512 (query and passage together, special tokens included, truncated longest
     * first); {@code batchSize} = 16 pairs; {@code intraOpThreads} = min(available processors, 4); {@code spinWait}
     * = false; {@code outputName} = {@code logits}, else the first output; {@code modelName} = the model file name
     * without {@code .onnx}. Not thread-safe; build once.
     */
    public static final class Builder {

        private ResourceLocation model;
        private ResourceLocation tokenizerLocation;
        private String modelName;
        private int maxSequenceLength = 512;
        private int batchSize = 16;
        private int intraOpThreads = OnnxModel.Settings.defaultIntraOpThreads();
        private boolean spinWait;
        private int maxConcurrentBatches;
        private String outputName = "logits";

        private Builder() {
        }

        /** The ONNX model file. */
        public Builder modelFile(Path path) {
            this.model = ResourceLocation.file(path, "modelFile");
            return this;
        }

        /** The ONNX model as a classpath resource of this library's class loader. */
        public Builder modelResource(String resource) {
            return modelResource(null, resource);
        }

        /** The ONNX model as a classpath resource of {@code loader} (null: this library's class loader). */
        public Builder modelResource(ClassLoader loader, String resource) {
            this.model = ResourceLocation.classpath(loader, resource, "modelResource");
            return this;
        }

        /** The Hugging Face {@code tokenizer.json} file. */
        public Builder tokenizerFile(Path path) {
            this.tokenizerLocation = ResourceLocation.file(path, "tokenizerFile");
            return this;
        }

        /** The {@code tokenizer.json} as a classpath resource of this library's class loader. */
        public Builder tokenizerResource(String resource) {
            return tokenizerResource(null, resource);
        }

        /** The {@code tokenizer.json} as a classpath resource of {@code loader} (null: this library's class loader). */
        public Builder tokenizerResource(ClassLoader loader, String resource) {
            this.tokenizerLocation = ResourceLocation.classpath(loader, resource, "tokenizerResource");
            return this;
        }

        /** The name used in {@link OnnxCrossEncoderReranker#modelId()}; default: the model file name. */
        public Builder modelName(String name) {
            this.modelName = Checks.notBlank(name, "modelName");
            return this;
        }

        /** Maximum tokens per (query, passage) pair, special tokens included; default 512. */
        public Builder maxSequenceLength(int tokens) {
            if (tokens < 4) {
                throw new IllegalArgumentException("maxSequenceLength must be >= 4, got " + tokens);
            }
            this.maxSequenceLength = tokens;
            return this;
        }

        /** Pairs per ONNX Runtime call; default 16. */
        public Builder batchSize(int pairs) {
            this.batchSize = Checks.positive(pairs, "batchSize");
            return this;
        }

        /** Threads ONNX Runtime uses inside one call; default min(available processors, 4). */
        public Builder intraOpThreads(int threads) {
            this.intraOpThreads = Checks.positive(threads, "intraOpThreads");
            return this;
        }

        /**
         * How many batches may run on the session at once; further callers wait their turn (first come, first
         * served). Default: available processors / intra-op threads, at least 1 (1 on a 2-core machine), so that
         * concurrent callers never oversubscribe the cores.
         */
        public Builder maxConcurrentBatches(int batches) {
            this.maxConcurrentBatches = Checks.positive(batches, "maxConcurrentBatches");
            return this;
        }

        /** Whether idle ONNX Runtime threads spin; default false. */
        public Builder spinWait(boolean spin) {
            this.spinWait = spin;
            return this;
        }

        /** The model output holding the logits; default {@code logits}, else the first output. */
        public Builder outputName(String name) {
            this.outputName = Checks.notBlank(name, "outputName");
            return this;
        }

        /**
         * Loads the model and the tokenizer.
         *
         * @throws IllegalStateException if no model or no tokenizer was given
         * @throws NonRetriableNeuralTextException naming the file and the problem: not found, no {@code input_ids},
         *                                         logits rank not 2, more than 2 labels
         */
        public OnnxCrossEncoderReranker build() {
            ResourceLocation.requireModelAndTokenizer(model, tokenizerLocation);
            String name = modelName != null ? modelName : model.baseName();
            ModelTokenizer tok = ModelTokenizer.load(tokenizerLocation, maxSequenceLength);
            try {
                OnnxModel.Settings settings = new OnnxModel.Settings(intraOpThreads, spinWait, maxConcurrentBatches);
                OnnxModel loaded = OnnxModel.load(model, settings, List.of(outputName), 2);
                long labels = loaded.outputShape()[1];
                if (labels > 2) {
                    loaded.close();
                    throw new NonRetriableNeuralTextException("cross-encoder " + model + ": output '"
                            + loaded.outputName() + "' has " + labels + " labels, expected 1 (relevance logit) or 2",
                            null);
                }
                return new OnnxCrossEncoderReranker(loaded, tok, batchSize,
                        name + "/cross-encoder/" + maxSequenceLength);
            } catch (RuntimeException e) {
                tok.close();
                throw e;
            }
        }
    }
}
