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
    public static final class Builder extends OnnxModelBuilder<Builder> {

        private int maxSequenceLength = 512;
        private int batchSize = 16;

        private Builder() {
            super(OnnxModel.Settings.defaultIntraOpThreads(), "logits");
        }

        @Override
        Builder self() {
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

        /**
         * Loads the model and the tokenizer.
         *
         * @throws IllegalStateException if no model or no tokenizer was given
         * @throws NonRetriableNeuralTextException naming the file and the problem: not found, no {@code input_ids},
         *                                         logits rank not 2, more than 2 labels
         */
        public OnnxCrossEncoderReranker build() {
            String name = requireModelAndTokenizer();
            ModelTokenizer tok = ModelTokenizer.load(tokenizerLocation, maxSequenceLength);
            try {
                OnnxModel loaded = OnnxModel.load(model, sessionSettings(), List.of(outputName), 2);
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
