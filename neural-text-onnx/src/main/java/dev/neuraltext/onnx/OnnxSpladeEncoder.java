package dev.neuraltext.onnx;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.SparseEncoder;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.internal.Checks;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A SPLADE {@link SparseEncoder} on ONNX Runtime: a BERT-style masked-language model (inputs {@code input_ids},
 * {@code attention_mask}, optional {@code token_type_ids}; output {@code logits} {@code [batch, tokens, vocabulary]})
 * turns a text into term weights {@code w[v] = max over real tokens t of log(1 + relu(logits[t][v]))} (padding
 * excluded by the attention mask, special tokens included as in the reference implementation), indexed by vocabulary
 * id.
 *
 * <p>Pruning: weights at or below {@code minWeight} are dropped, then only the {@code topK} largest are kept (ties: the
 * lower vocabulary id wins), separately configurable for queries and documents. Queries may use a separate query-side
 * model (as in efficient SPLADE variants); by default both sides share one model.
 *
 * <p>Thread safety: safe for concurrent use; threads share the sessions. The creator owns the encoder and must
 * {@link #close()} it.
 */
public final class OnnxSpladeEncoder implements SparseEncoder, AutoCloseable {

    private final OnnxModel documentModel;
    private final OnnxModel queryModel;
    private final ModelTokenizer tokenizer;
    private final int vocabulary;
    private final int maxSequenceLength;
    private final LongInputPolicy longInputPolicy;
    private final int batchSize;
    private final int queryTopK;
    private final int documentTopK;
    private final float minWeight;
    private final String modelId;

    private OnnxSpladeEncoder(Builder b, OnnxModel documentModel, OnnxModel queryModel, ModelTokenizer tokenizer,
            int vocabulary, String name) {
        this.documentModel = documentModel;
        this.queryModel = queryModel;
        this.tokenizer = tokenizer;
        this.vocabulary = vocabulary;
        this.maxSequenceLength = b.maxSequenceLength;
        this.longInputPolicy = b.longInputPolicy;
        this.batchSize = b.batchSize;
        this.queryTopK = b.queryTopK;
        this.documentTopK = b.documentTopK;
        this.minWeight = b.minWeight;
        this.modelId = name + "/splade/" + maxSequenceLength
                + (longInputPolicy == LongInputPolicy.WINDOWS ? "/windows" : "")
                + "/q" + (queryTopK == Integer.MAX_VALUE ? "all" : queryTopK)
                + "/d" + (documentTopK == Integer.MAX_VALUE ? "all" : documentTopK)
                + (minWeight > 0 ? "/min" + minWeight : "");
    }

    /** A builder; see {@link Builder} for the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** {@code <model name>/splade/<max length>[/windows]/q<query top-k>/d<document top-k>[/min<weight>]}. */
    @Override
    public String modelId() {
        return modelId;
    }

    /** The vocabulary size: every index of every vector is below it. */
    public int vocabularySize() {
        return vocabulary;
    }

    /**
     * Encodes {@code texts} in length-sorted batches.
     *
     * @throws IllegalArgumentException if {@code texts}, an element or {@code role} is null
     * @throws NonRetriableNeuralTextException if tokenization or ONNX Runtime fails (cause attached)
     * @throws IllegalStateException if the encoder is closed
     */
    @Override
    public List<SparseVector> encode(List<String> texts, TextRole role) {
        Checks.notNull(texts, "texts");
        Checks.notNull(role, "role");
        if (texts.isEmpty()) {
            return List.of();
        }
        OnnxModel model = role == TextRole.QUERY ? queryModel : documentModel;
        List<Sequences.Unit> units = Sequences.single(tokenizer, texts, "", maxSequenceLength, longInputPolicy);
        // Per text: the max-pooled weights over all its windows (dense over the vocabulary while encoding).
        float[][] weights = new float[texts.size()][];
        Sequences.run(model, tokenizer.padId(), units, batchSize, (batch, out) -> {
            int length = (int) out.shape()[1];
            int vocab = (int) out.shape()[2];
            if (vocab != vocabulary) {
                throw new NonRetriableNeuralTextException("SPLADE model " + model.source() + " returned logits over "
                        + vocab + " terms, expected the tokenizer's " + vocabulary, null);
            }
            for (int b = 0; b < batch.length; b++) {
                Sequences.Unit unit = units.get(batch[b]);
                float[] w = weights[unit.owner()];
                if (w == null) {
                    w = new float[vocabulary];
                    weights[unit.owner()] = w;
                }
                maxPool(out.data(), b, length, unit.ids().length, w);
            }
        });
        int topK = role == TextRole.QUERY ? queryTopK : documentTopK;
        List<SparseVector> result = new ArrayList<>(texts.size());
        for (float[] w : weights) {
            result.add(prune(w, minWeight, topK));
        }
        return result;
    }

    /** {@code w[v] = max(w[v], log(1 + relu(logit[t][v])))} over the first {@code tokens} positions of row b. */
    private void maxPool(FloatBuffer data, int b, int length, int tokens, float[] w) {
        long base = (long) b * length * vocabulary;
        for (int t = 0; t < tokens; t++) {
            int row = (int) (base + (long) t * vocabulary);
            for (int v = 0; v < vocabulary; v++) {
                float logit = data.get(row + v);
                if (logit > 0) {
                    float x = (float) Math.log1p(logit);
                    if (x > w[v]) {
                        w[v] = x;
                    }
                }
            }
        }
    }

    /** Keeps weights above {@code minWeight}, then the {@code topK} largest (ties: lower id), in index order. */
    static SparseVector prune(float[] w, float minWeight, int topK) {
        int count = 0;
        for (float x : w) {
            if (x > minWeight) {
                count++;
            }
        }
        int[] ids = new int[count];
        int k = 0;
        for (int v = 0; v < w.length; v++) {
            if (w[v] > minWeight) {
                ids[k++] = v;
            }
        }
        if (count > topK) {
            Integer[] boxed = new Integer[count];
            for (int i = 0; i < count; i++) {
                boxed[i] = ids[i];
            }
            Arrays.sort(boxed, (a, c) -> w[a] != w[c] ? Float.compare(w[c], w[a]) : Integer.compare(a, c));
            ids = new int[topK];
            for (int i = 0; i < topK; i++) {
                ids[i] = boxed[i];
            }
            Arrays.sort(ids);
        }
        float[] values = new float[ids.length];
        for (int i = 0; i < ids.length; i++) {
            values[i] = w[ids[i]];
        }
        return new SparseVector(ids, values);
    }

    /** Releases the sessions and the native tokenizer. Idempotent. */
    @Override
    public void close() {
        try {
            documentModel.close();
            if (queryModel != documentModel) {
                queryModel.close();
            }
        } finally {
            tokenizer.close();
        }
    }

    @Override
    public String toString() {
        return "OnnxSpladeEncoder{" + modelId + ", model=" + documentModel.source() + "}";
    }

    /**
     * Configures an {@link OnnxSpladeEncoder}. Required: a model and a tokenizer. Defaults: {@code maxSequenceLength}
     * = 512; {@code longInputPolicy} = {@link LongInputPolicy#TRUNCATE}; {@code minWeight} = 0 (keep every positive
     * weight); {@code queryTopK} = unlimited; {@code documentTopK} = 256; {@code batchSize} = 8 (the logits of one
     * sequence are {@code tokens x vocabulary} floats, 31 MB for 256 x 30522); {@code intraOpThreads} = min(available
     * processors, 4); {@code spinWait} = false; {@code outputName} = {@code logits}, else the first output;
     * {@code modelName} = the model file name without {@code .onnx}; query-side model = the document model.
     * Not thread-safe; build once.
     */
    public static final class Builder extends OnnxModelBuilder<Builder> {

        private ResourceLocation queryModelLocation;
        private int maxSequenceLength = 512;
        private LongInputPolicy longInputPolicy = LongInputPolicy.TRUNCATE;
        private int batchSize = 8;
        private int queryTopK = Integer.MAX_VALUE;
        private int documentTopK = 256;
        private float minWeight;

        private Builder() {
            super(OnnxModel.Settings.defaultIntraOpThreads(), "logits");
        }

        @Override
        Builder self() {
            return this;
        }

        /** A separate query-side ONNX model file sharing the tokenizer and vocabulary; default: the model. */
        public Builder queryModelFile(Path path) {
            this.queryModelLocation = ResourceLocation.file(path, "queryModelFile");
            return this;
        }

        /** A separate query-side model as a classpath resource of {@code loader} (null: this library's). */
        public Builder queryModelResource(ClassLoader loader, String resource) {
            this.queryModelLocation = ResourceLocation.classpath(loader, resource, "queryModelResource");
            return this;
        }

        /** Maximum tokens per sequence, special tokens included; default 512. */
        public Builder maxSequenceLength(int tokens) {
            if (tokens < 3) {
                throw new IllegalArgumentException("maxSequenceLength must be >= 3, got " + tokens);
            }
            this.maxSequenceLength = tokens;
            return this;
        }

        /** Long texts: truncate (default) or windows whose weights are max-pooled. */
        public Builder longInputPolicy(LongInputPolicy policy) {
            this.longInputPolicy = Checks.notNull(policy, "longInputPolicy");
            return this;
        }

        /** Sequences per ONNX Runtime call; default 8. */
        public Builder batchSize(int sequences) {
            this.batchSize = Checks.positive(sequences, "batchSize");
            return this;
        }

        /** At most this many terms per query vector (the largest weights); default unlimited. */
        public Builder queryTopK(int terms) {
            this.queryTopK = Checks.positive(terms, "queryTopK");
            return this;
        }

        /** At most this many terms per document vector (the largest weights); default 256. */
        public Builder documentTopK(int terms) {
            this.documentTopK = Checks.positive(terms, "documentTopK");
            return this;
        }

        /** Weights at or below this value are dropped; default 0 (keep every positive weight). */
        public Builder minWeight(double weight) {
            this.minWeight = (float) Checks.nonNegativeFinite(weight, "minWeight");
            return this;
        }

        /**
         * Loads the model(s) and the tokenizer.
         *
         * @throws IllegalStateException if no model or no tokenizer was given
         * @throws NonRetriableNeuralTextException naming the file and the problem: not found, no {@code input_ids},
         *                                         logits rank not 3, vocabulary size different from the tokenizer's
         */
        public OnnxSpladeEncoder build() {
            String name = requireModelAndTokenizer();
            OnnxModel.Settings settings = sessionSettings();
            List<AutoCloseable> opened = new ArrayList<>();
            try {
                ModelTokenizer tok = ModelTokenizer.load(tokenizerLocation, 0);
                opened.add(tok);
                tok.requireRoomForText(maxSequenceLength);
                OnnxModel doc = OnnxModel.load(model, settings, List.of(outputName), 3);
                opened.add(doc);
                checkVocabulary(doc, tok);
                OnnxModel query = doc;
                if (queryModelLocation != null) {
                    query = OnnxModel.load(queryModelLocation, settings, List.of(outputName), 3);
                    opened.add(query);
                    checkVocabulary(query, tok);
                }
                return new OnnxSpladeEncoder(this, doc, query, tok, tok.vocabSize(), name);
            } catch (RuntimeException e) {
                for (AutoCloseable c : opened) {
                    try {
                        c.close();
                    } catch (Exception suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e;
            }
        }

        private static void checkVocabulary(OnnxModel model, ModelTokenizer tok) {
            long vocab = model.outputShape()[2];
            if (vocab > 0 && vocab != tok.vocabSize()) {
                throw new NonRetriableNeuralTextException(String.format(Locale.ROOT,
                        "vocabulary mismatch: SPLADE model %s has logits over %d terms but tokenizer %s has %d",
                        model.source(), vocab, tok.source(), tok.vocabSize()), null);
            }
        }
    }
}
