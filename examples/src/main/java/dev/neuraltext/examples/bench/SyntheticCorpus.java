package dev.neuraltext.examples.bench;

import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import java.util.List;
import java.util.Map;
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
 * <p>Vectors are random unit vectors (a Gaussian per component, normalised), seeded per document and per query: no
 * model runs, and every engine gets the same vectors. Immutable and thread-safe.
 */
final class SyntheticCorpus {

    /** A word that looks like a code identifier: camel case, an underscore, or letters then digits. */
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final List<EvalDocument> base;
    private final List<EvalQuery> queries;
    private final int size;
    private final int dimension;
    private final long seed;

    SyntheticCorpus(List<EvalDocument> base, List<EvalQuery> queries, int size, int dimension, long seed) {
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
        return unitVector(seed * 31 + ordinal);
    }

    /** The unit vector of query {@code i}. */
    float[] queryVector(int i) {
        return unitVector(~(seed * 31 + i));
    }

    private float[] unitVector(long vectorSeed) {
        Random random = new Random(vectorSeed);
        float[] v = new float[dimension];
        double norm = 0;
        for (int k = 0; k < dimension; k++) {
            v[k] = (float) random.nextGaussian();
            norm += (double) v[k] * v[k];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int k = 0; k < dimension; k++) {
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
