package dev.neuraltext.store;

import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.SparseEncoder;
import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an index was built with: the lexical configuration of the store (tokenizer, BM25 parameters, field weights)
 * and the models behind the vector legs. Saved with an index and compared on load, so that an index built with
 * another model or tokenizer is rebuilt instead of serving wrong results ({@link IndexMismatchException}).
 *
 * <p>Obtain one from {@link InMemoryCaseStore#fingerprint()} or {@link InMemoryCaseStore.Builder#fingerprint()} (the
 * lexical part) and add the models with {@link #withDense(Embedder)} / {@link #withSparse(SparseEncoder)}, or take
 * {@link dev.neuraltext.retrieve.HybridCaseRetriever#fingerprint()}, which does both. Immutable and thread-safe.
 *
 * @param tokenizer      an identifier of the BM25 tokenizer and its settings
 * @param bm25           the BM25 parameters
 * @param fieldWeights   BM25 field weights that differ from the default 1.0 (copied, sorted by field)
 * @param denseModel     the embedder's model id, {@code ""} when there is no dense leg
 * @param denseDimension the embedder's dimension, 0 exactly when {@code denseModel} is empty
 * @param sparseModel    the sparse encoder's model id, {@code ""} when there is no sparse leg
 */
public record IndexFingerprint(
        String tokenizer,
        Bm25Params bm25,
        Map<String, Double> fieldWeights,
        String denseModel,
        int denseDimension,
        String sparseModel) {

    public IndexFingerprint {
        Checks.notBlank(tokenizer, "tokenizer");
        Objects.requireNonNull(bm25, "bm25");
        Checks.notNull(fieldWeights, "fieldWeights");
        TreeMap<String, Double> sorted = new TreeMap<>();
        fieldWeights.forEach((field, weight) -> {
            Checks.notBlank(field, "fieldWeights key");
            Checks.nonNegativeFinite(weight == null ? Double.NaN : weight, "fieldWeights['" + field + "']");
            sorted.put(field, weight);
        });
        fieldWeights = Collections.unmodifiableMap(sorted);
        Checks.notNull(denseModel, "denseModel");
        Checks.notNull(sparseModel, "sparseModel");
        if (denseDimension < 0) {
            throw new IllegalArgumentException("denseDimension must be >= 0, got " + denseDimension);
        }
        if (denseModel.isEmpty() != (denseDimension == 0)) {
            throw new IllegalArgumentException("denseModel and denseDimension must both be set or both be empty, got '"
                    + denseModel + "' and " + denseDimension);
        }
    }

    /** A lexical-only fingerprint (no vector legs). */
    public static IndexFingerprint lexical(String tokenizer, Bm25Params bm25, Map<String, Double> fieldWeights) {
        return new IndexFingerprint(tokenizer, bm25, fieldWeights, "", 0, "");
    }

    /** A copy recording a dense leg built with {@code modelId} at {@code dimension}. */
    public IndexFingerprint withDense(String modelId, int dimension) {
        Checks.notBlank(modelId, "modelId");
        Checks.positive(dimension, "dimension");
        return new IndexFingerprint(tokenizer, bm25, fieldWeights, modelId, dimension, sparseModel);
    }

    /** A copy recording a dense leg built with {@code embedder} ({@link Embedder#modelId()}, {@link Embedder#dimension()}). */
    public IndexFingerprint withDense(Embedder embedder) {
        Objects.requireNonNull(embedder, "embedder");
        return withDense(embedder.modelId(), embedder.dimension());
    }

    /** A copy recording a sparse leg built with {@code modelId}. */
    public IndexFingerprint withSparse(String modelId) {
        Checks.notBlank(modelId, "modelId");
        return new IndexFingerprint(tokenizer, bm25, fieldWeights, denseModel, denseDimension, modelId);
    }

    /** A copy recording a sparse leg built with {@code encoder}. */
    public IndexFingerprint withSparse(SparseEncoder encoder) {
        Objects.requireNonNull(encoder, "encoder");
        return withSparse(encoder.modelId());
    }

    /** A copy without the vector legs: the lexical configuration only. */
    public IndexFingerprint lexicalPart() {
        return lexical(tokenizer, bm25, fieldWeights);
    }

    /**
     * What differs between this fingerprint (as stored) and {@code other} (as expected), one readable line per
     * component, e.g. {@code "dense model: index has 'a' (384), expected 'b' (768)"}; empty when they are equal.
     */
    public List<String> differences(IndexFingerprint other) {
        Objects.requireNonNull(other, "other");
        List<String> diffs = new ArrayList<>();
        if (!tokenizer.equals(other.tokenizer)) {
            diffs.add("tokenizer: index has '" + tokenizer + "', expected '" + other.tokenizer + "'");
        }
        if (!bm25.equals(other.bm25)) {
            diffs.add("bm25: index has k1=" + bm25.k1() + " b=" + bm25.b() + ", expected k1=" + other.bm25.k1()
                    + " b=" + other.bm25.b());
        }
        if (!fieldWeights.equals(other.fieldWeights)) {
            diffs.add("field weights: index has " + fieldWeights + ", expected " + other.fieldWeights);
        }
        diffs.addAll(vectorDifferences(other));
        return diffs;
    }

    /**
     * The differences in the vector legs only (dense model and dimension, sparse model): the ones that make saved
     * vectors unusable. Lexical differences are harmless to a saved embedded index: a load whose BM25 settings differ
     * from the saved ones rebuilds the postings from the stored chunks.
     */
    public List<String> vectorDifferences(IndexFingerprint other) {
        Objects.requireNonNull(other, "other");
        List<String> diffs = new ArrayList<>();
        if (!denseModel.equals(other.denseModel) || denseDimension != other.denseDimension) {
            diffs.add("dense model: index has " + dense(denseModel, denseDimension) + ", expected "
                    + dense(other.denseModel, other.denseDimension));
        }
        if (!sparseModel.equals(other.sparseModel)) {
            diffs.add("sparse model: index has " + name(sparseModel) + ", expected " + name(other.sparseModel));
        }
        return diffs;
    }

    /** One line for command-line output, e.g. {@code "tokenizer code-standard, bm25 k1=1.2 b=0.75, dense 'm' (384)"}. */
    public String describe() {
        return "tokenizer " + tokenizer + ", bm25 k1=" + bm25.k1() + " b=" + bm25.b()
                + (fieldWeights.isEmpty() ? "" : ", field weights " + fieldWeights)
                + ", dense " + dense(denseModel, denseDimension) + ", sparse " + name(sparseModel);
    }

    private static String dense(String model, int dimension) {
        return model.isEmpty() ? "none" : "'" + model + "' (" + dimension + ")";
    }

    private static String name(String model) {
        return model.isEmpty() ? "none" : "'" + model + "'";
    }
}
