package dev.neuraltext.testing;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A deterministic {@link Embedder} for unit tests: no model, no native code, no files. <strong>Not for
 * production</strong>: it knows no meaning, only spelling, so it finds texts that share character sequences with the
 * query and misses paraphrases.
 *
 * <p>A text is lower-cased and split into words (runs of letters and digits; {@code RetryPolicy} stays one word and
 * also yields {@code retry} and {@code policy} through its character n-grams). Each word, padded with one boundary
 * mark on both sides, gives its character n-grams of every length from {@link #minGram()} to {@link #maxGram()}. Each
 * n-gram is hashed (64-bit FNV-1a over its UTF-16 code units, a fixed function, so vectors are the same on every JVM
 * and every run) to one of {@link #dimension()} buckets with a sign taken from another bit of the hash; the vector
 * is the sum, L2-normalised. A text without letters or digits gives the zero vector. Queries and documents are
 * embedded the same way.
 *
 * <p>Defaults: {@value #DEFAULT_DIMENSION} dimensions, n-grams of {@value #DEFAULT_MIN_GRAM} to
 * {@value #DEFAULT_MAX_GRAM} characters.
 *
 * <p>Immutable and safe for concurrent use by several threads; nothing to close.
 */
public final class HashingEmbedder implements Embedder {

    /** Default vector length. */
    public static final int DEFAULT_DIMENSION = 256;
    /** Default shortest n-gram. */
    public static final int DEFAULT_MIN_GRAM = 3;
    /** Default longest n-gram. */
    public static final int DEFAULT_MAX_GRAM = 4;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final char BOUNDARY = '#';

    private final int dimension;
    private final int minGram;
    private final int maxGram;

    private HashingEmbedder(int dimension, int minGram, int maxGram) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
        }
        if (minGram < 1 || maxGram < minGram) {
            throw new IllegalArgumentException("n-gram lengths must satisfy 1 <= minGram <= maxGram, got minGram "
                    + minGram + " and maxGram " + maxGram);
        }
        this.dimension = dimension;
        this.minGram = minGram;
        this.maxGram = maxGram;
    }

    /** An embedder with the defaults: {@value #DEFAULT_DIMENSION} dimensions, 3- and 4-grams. */
    public static HashingEmbedder create() {
        return new HashingEmbedder(DEFAULT_DIMENSION, DEFAULT_MIN_GRAM, DEFAULT_MAX_GRAM);
    }

    /**
     * An embedder with its own settings.
     *
     * @param dimension vector length, at least 1
     * @param minGram   shortest n-gram, at least 1
     * @param maxGram   longest n-gram, at least {@code minGram}
     * @throws IllegalArgumentException naming the bad value
     */
    public static HashingEmbedder of(int dimension, int minGram, int maxGram) {
        return new HashingEmbedder(dimension, minGram, maxGram);
    }

    @Override
    public int dimension() {
        return dimension;
    }

    /** {@code hashing-char-ngrams/<min>-<max>/<dimension>}, so an index built with other settings is told apart. */
    @Override
    public String modelId() {
        return "hashing-char-ngrams/" + minGram + "-" + maxGram + "/" + dimension;
    }

    /** The shortest n-gram length. */
    public int minGram() {
        return minGram;
    }

    /** The longest n-gram length. */
    public int maxGram() {
        return maxGram;
    }

    @Override
    public List<float[]> embed(List<String> texts, TextRole role) {
        Objects.requireNonNull(texts, "texts");
        Objects.requireNonNull(role, "role");
        List<float[]> vectors = new ArrayList<>(texts.size());
        for (String text : texts) {
            vectors.add(embedOne(Objects.requireNonNull(text, "texts must not contain null")));
        }
        return vectors;
    }

    private float[] embedOne(String text) {
        double[] sum = new double[dimension];
        String lower = text.toLowerCase(Locale.ROOT);
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= lower.length(); i++) {
            char c = i < lower.length() ? lower.charAt(i) : ' ';
            if (Character.isLetterOrDigit(c)) {
                word.append(c);
            } else if (word.length() > 0) {
                addWord(BOUNDARY + word.toString() + BOUNDARY, sum);
                word.setLength(0);
            }
        }
        double norm = 0;
        for (double v : sum) {
            norm += v * v;
        }
        float[] vector = new float[dimension];
        if (norm > 0) {
            double inverse = 1 / Math.sqrt(norm);
            for (int i = 0; i < dimension; i++) {
                vector[i] = (float) (sum[i] * inverse);
            }
        }
        return vector;
    }

    private void addWord(String padded, double[] sum) {
        for (int n = minGram; n <= maxGram; n++) {
            for (int start = 0; start + n <= padded.length(); start++) {
                long hash = FNV_OFFSET;
                for (int k = start; k < start + n; k++) {
                    hash = (hash ^ padded.charAt(k)) * FNV_PRIME;
                }
                int bucket = (int) Long.remainderUnsigned(hash, dimension);
                sum[bucket] += (hash >>> 63) == 0 ? 1 : -1;
            }
        }
    }

    @Override
    public String toString() {
        return "HashingEmbedder[" + modelId() + "]";
    }
}
