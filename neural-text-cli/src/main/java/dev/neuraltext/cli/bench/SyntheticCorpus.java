package dev.neuraltext.cli.bench;

import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A corpus of any size made from a small one, for scale benchmarks: document {@code o} is copy {@code o / B} of base
 * document {@code o % B}, with every identifier renamed for its copy ({@code StringUtils} becomes
 * {@code StringUtilsZab} in copy 1), so the vocabulary grows with the corpus as it does in a large code base while
 * the prose and the keywords stay shared. Copy 0 is the base corpus unchanged. Query {@code i} is base query
 * {@code i % Q} renamed for copy {@code i % copies}, so the queries reach every copy.
 *
 * <p>Vectors ({@link Vectors}), seeded per document and per query, so no model runs and every engine gets the same
 * vectors:
 * <ul>
 *   <li>{@link Vectors#CLUSTERED} (the default) follows the corpus model: a base document (copy 0) gets a random unit
 *       vector, and copy {@code k} of it, the same code with identifiers renamed, gets
 *       {@code normalize(v + sigma * noise)} with sigma chosen so that the copy sits at cosine {@value #COPY_COSINE}
 *       from its base; a query gets the vector of its first relevant base document plus noise at cosine
 *       {@value #QUERY_COSINE}, or a random unit vector if it has no relevant document;</li>
 *   <li>{@link Vectors#RANDOM}: an independent random unit vector per document and query, the worst case for any ANN
 *       index (no neighbourhood structure at all).</li>
 * </ul>
 * Immutable and thread-safe.
 */
final class SyntheticCorpus {

    /** How the benchmark's vectors relate to each other. */
    enum Vectors {
        /** Copies near their base document, queries near their relevant document: the corpus model. */
        CLUSTERED,
        /** Independent random unit vectors: no structure for an ANN index to exploit. */
        RANDOM
    }

    /** The cosine of a copy's vector to its base document's (clustered vectors). */
    static final double COPY_COSINE = 0.9;
    /** The cosine of a query's vector to its relevant base document's (clustered vectors). */
    static final double QUERY_COSINE = 0.8;

    /** A word that looks like a code identifier: camel case, an underscore, or letters then digits. */
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final List<EvalDocument> base;
    private final List<EvalQuery> queries;
    private final int size;
    private final int dimension;
    private final long seed;
    private final Vectors vectors;
    private final int[] relevantBase;

    /** A corpus with random vectors. */
    SyntheticCorpus(List<EvalDocument> base, List<EvalQuery> queries, int size, int dimension, long seed) {
        this(base, queries, new int[queries.size()], size, dimension, seed, Vectors.RANDOM);
    }

    /**
     * A corpus; {@code relevantBase[i]} is the index in {@code base} of the first relevant document of query {@code i},
     * or -1 if it has none (used by clustered vectors).
     */
    SyntheticCorpus(List<EvalDocument> base, List<EvalQuery> queries, int[] relevantBase, int size, int dimension,
            long seed, Vectors vectors) {
        if (base.isEmpty()) {
            throw new IllegalArgumentException("the base corpus is empty");
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("the base corpus has no queries");
        }
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1, got " + size);
        }
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
        }
        this.base = List.copyOf(base);
        this.queries = List.copyOf(queries);
        this.size = size;
        this.dimension = dimension;
        this.seed = seed;
        this.vectors = Objects.requireNonNull(vectors, "vectors");
        if (relevantBase.length != queries.size()) {
            throw new IllegalArgumentException("relevantBase has " + relevantBase.length + " entries for "
                    + queries.size() + " queries");
        }
        for (int r : relevantBase) {
            if (r < -1 || r >= base.size()) {
                throw new IllegalArgumentException("relevantBase entry " + r + " is not -1 or a base document index");
            }
        }
        this.relevantBase = relevantBase.clone();
    }

    Vectors vectors() {
        return vectors;
    }

    int size() {
        return size;
    }

    int dimension() {
        return dimension;
    }

    /** How many copies of the base corpus the corpus spans (the last one may be partial). */
    int copies() {
        return (size + base.size() - 1) / base.size();
    }

    /** Document {@code ordinal}: a renamed copy of a base document, with its own id. */
    EvalDocument document(int ordinal) {
        if (ordinal < 0 || ordinal >= size) {
            throw new IndexOutOfBoundsException("document " + ordinal + " of " + size);
        }
        EvalDocument d = base.get(ordinal % base.size());
        int copy = ordinal / base.size();
        if (copy == 0) {
            return d;
        }
        return new EvalDocument(d.id() + "~" + copy, rename(d.title(), copy), rename(d.text(), copy), Map.of());
    }

    /** The text of query {@code i} (any non-negative number), renamed for the copy it targets. */
    String query(int i) {
        return rename(queries.get(i % queries.size()).text(), i % copies());
    }

    /** The unit vector of document {@code ordinal}. */
    float[] documentVector(int ordinal) {
        if (vectors == Vectors.RANDOM || ordinal < base.size()) {
            return unitVector(seed * 31 + ordinal);
        }
        return near(documentVector(ordinal % base.size()), COPY_COSINE, seed * 31 + ordinal);
    }

    /** The unit vector of query {@code i}. */
    float[] queryVector(int i) {
        int relevant = relevantBase[i % queries.size()];
        if (vectors == Vectors.RANDOM || relevant < 0) {
            return unitVector(~(seed * 31 + i));
        }
        return near(documentVector(relevant), QUERY_COSINE, ~(seed * 31 + i));
    }

    /**
     * {@code normalize(unit + sigma * g)} with {@code g} a standard Gaussian vector and sigma such that the result's
     * expected cosine to {@code unit} is {@code cosine}: {@code |g|^2} is about the dimension, so
     * {@code cos = 1 / sqrt(1 + dim * sigma^2)}.
     */
    private float[] near(float[] unit, double cosine, long noiseSeed) {
        double sigma = Math.sqrt((1 / (cosine * cosine) - 1) / dimension);
        Random random = new Random(noiseSeed);
        float[] v = new float[dimension];
        for (int k = 0; k < dimension; k++) {
            v[k] = (float) (unit[k] + sigma * random.nextGaussian());
        }
        return normalize(v);
    }

    private float[] unitVector(long vectorSeed) {
        Random random = new Random(vectorSeed);
        float[] v = new float[dimension];
        for (int k = 0; k < dimension; k++) {
            v[k] = (float) random.nextGaussian();
        }
        return normalize(v);
    }

    private static float[] normalize(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int k = 0; k < v.length; k++) {
            v[k] *= inv;
        }
        return v;
    }

    /** Renames the identifiers of {@code text} for {@code copy} (0 leaves it as is). */
    static String rename(String text, int copy) {
        if (copy == 0 || text.isEmpty()) {
            return text;
        }
        String suffix = "Z" + letters(copy);
        Matcher m = WORD.matcher(text);
        StringBuilder out = new StringBuilder(text.length() + 64);
        int last = 0;
        while (m.find()) {
            String word = m.group();
            out.append(text, last, m.end());
            if (isIdentifier(word)) {
                out.append(suffix);
            }
            last = m.end();
        }
        return out.append(text, last, text.length()).toString();
    }

    static boolean isIdentifier(String word) {
        if (word.length() < 3) {
            return false;
        }
        boolean letter = false;
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '_' || (i > 0 && Character.isUpperCase(c) && Character.isLowerCase(word.charAt(i - 1)))
                    || (letter && Character.isDigit(c))) {
                return true;
            }
            letter = Character.isLetter(c);
        }
        return false;
    }

    /** {@code n} in base 26 with the letters a to z, at least two of them. */
    static String letters(int n) {
        StringBuilder s = new StringBuilder();
        do {
            s.append((char) ('a' + n % 26));
            n /= 26;
        } while (n > 0);
        if (s.length() < 2) {
            s.append('a');
        }
        return s.reverse().toString();
    }
}
