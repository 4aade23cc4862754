package dev.neuraltext.qdrant;

import dev.neuraltext.bm25.Bm25FScorer;
import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.text.CodeDomainTokenizer;
import io.qdrant.client.grpc.Points;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Turns chunks and queries into the sparse vectors of {@link Bm25Mode#CLIENT_SIDE}, so that Qdrant's dot product with
 * the {@code Modifier.Idf} vector reproduces the embedded {@link Bm25Index}'s BM25F score:
 * <pre>
 *   index(t)     = |murmur3_32(utf8(t))|                       (as Qdrant's own bm25 model hashes terms)
 *   document(t)  = tf~ / (k1 + tf~),  tf~ = sum_f w_f * tf(t,f) / (1 - b_f + b_f * len(f) / avglen(f))
 *   query(t)     = number of occurrences of t in the query
 *   Qdrant score = sum_t query(t) * idf(t) * document(t),  idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
 * </pre>
 * with the embedded index's default field weights, field {@code b}s and binary fields
 * ({@link Bm25Index#DEFAULT_FIELD_WEIGHTS}, {@link Bm25Index#DEFAULT_FIELD_BS}, {@link Bm25Index#DEFAULT_BINARY_FIELDS})
 * over {@link ChunkInput#bm25Fields()}, computed by the same {@link Bm25FScorer}. The one input Qdrant cannot supply is {@code avglen(f)}: it is configured
 * (per field, else one default) instead of tracked, so document weights do not change as the corpus grows.
 * Immutable and thread-safe as long as the tokenizer function is.
 */
final class ClientBm25Encoder {

    private final Function<String, List<String>> tokenizer;
    private final Bm25Params params;
    private final Bm25FScorer scorer;
    private final Map<String, Double> averageLengths;
    private final double defaultAverageLength;

    ClientBm25Encoder(Function<String, List<String>> tokenizer, Bm25Params params, Map<String, Double> averageLengths,
            double defaultAverageLength) {
        this.tokenizer = tokenizer;
        this.params = params;
        this.scorer = new Bm25FScorer(params);
        if (!(defaultAverageLength > 0) || Double.isInfinite(defaultAverageLength)) {
            throw new IllegalArgumentException("bm25 average length must be a positive finite value, got "
                    + defaultAverageLength);
        }
        averageLengths.forEach((f, v) -> {
            if (v == null || !(v > 0) || v.isInfinite()) {
                throw new IllegalArgumentException("bm25 average length of field '" + f
                        + "' must be a positive finite value, got " + v);
            }
        });
        this.averageLengths = Map.copyOf(averageLengths);
        this.defaultAverageLength = defaultAverageLength;
    }

    /** With the standard {@link CodeDomainTokenizer}. */
    static ClientBm25Encoder standard(Bm25Params params, Map<String, Double> averageLengths,
            double defaultAverageLength) {
        CodeDomainTokenizer tokenizer = CodeDomainTokenizer.standard();
        return new ClientBm25Encoder(tokenizer::tokenize, params, averageLengths, defaultAverageLength);
    }

    /** The document-side vector of a chunk's BM25 fields; empty when they have no terms. */
    Points.SparseVector document(ChunkInput chunk) {
        return document(chunk.bm25Fields());
    }

    /** The document-side vector of named fields; empty when they have no terms. */
    Points.SparseVector document(Map<String, String> fields) {
        TreeMap<Integer, Double> tf = new TreeMap<>();
        for (Map.Entry<String, String> field : new TreeMap<>(fields).entrySet()) {
            String name = field.getKey();
            List<String> terms = tokenizer.apply(field.getValue());
            if (terms.isEmpty()) {
                continue;
            }
            double w = Bm25Index.DEFAULT_FIELD_WEIGHTS.getOrDefault(name, 1.0);
            double b = Bm25Index.DEFAULT_FIELD_BS.getOrDefault(name, params.b());
            double lengthFactor = Bm25FScorer.lengthFactor(b, averageLength(name));
            int length = terms.size();
            boolean binary = Bm25Index.DEFAULT_BINARY_FIELDS.contains(name);
            Map<Integer, Integer> counts = counts(terms);
            counts.forEach((index, count) -> tf.merge(index,
                    Bm25FScorer.fieldTf(w, binary ? 1 : count, b, lengthFactor, length), Double::sum));
        }
        Points.SparseVector.Builder v = Points.SparseVector.newBuilder();
        for (Map.Entry<Integer, Double> e : tf.entrySet()) {
            v.addIndices(e.getKey()).addValues((float) scorer.saturation(e.getValue()));
        }
        return v.build();
    }

    /** The query-side vector: each distinct term's count; empty when the text has no terms. */
    Points.SparseVector query(String text) {
        Points.SparseVector.Builder v = Points.SparseVector.newBuilder();
        counts(tokenizer.apply(text)).forEach((index, count) -> v.addIndices(index).addValues(count));
        return v.build();
    }

    double averageLength(String field) {
        return averageLengths.getOrDefault(field, defaultAverageLength);
    }

    private static TreeMap<Integer, Integer> counts(List<String> terms) {
        TreeMap<Integer, Integer> tf = new TreeMap<>();
        for (String t : terms) {
            tf.merge(termIndex(t), 1, Integer::sum);
        }
        return tf;
    }

    /** The average number of terms per field over the chunks that have it (as the embedded index computes it). */
    static Map<String, Double> averageLengths(Collection<ChunkInput> chunks,
            Function<String, List<String>> tokenizer) {
        Map<String, long[]> sums = new HashMap<>();
        for (ChunkInput c : chunks) {
            for (Map.Entry<String, String> f : c.bm25Fields().entrySet()) {
                long[] s = sums.computeIfAbsent(f.getKey(), k -> new long[2]);
                s[0] += tokenizer.apply(f.getValue()).size();
                s[1]++;
            }
        }
        Map<String, Double> out = new TreeMap<>();
        sums.forEach((f, s) -> out.put(f, s[0] == 0 ? 1.0 : (double) s[0] / s[1]));
        return out;
    }

    /** The sparse index of a term: murmur3 x86 32-bit (seed 0) of its UTF-8 bytes, absolute value (as Qdrant's bm25). */
    static int termIndex(String term) {
        int h = murmur3(term.getBytes(StandardCharsets.UTF_8));
        return h == Integer.MIN_VALUE ? 0 : Math.abs(h);
    }

    @SuppressWarnings("fallthrough")
    static int murmur3(byte[] data) {
        final int c1 = 0xcc9e2d51;
        final int c2 = 0x1b873593;
        int h = 0;
        int n = data.length & ~3;
        for (int i = 0; i < n; i += 4) {
            int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | (data[i + 3] & 0xff) << 24;
            k *= c1;
            k = Integer.rotateLeft(k, 15);
            k *= c2;
            h ^= k;
            h = Integer.rotateLeft(h, 13);
            h = h * 5 + 0xe6546b64;
        }
        int k = 0;
        switch (data.length & 3) {
            case 3:
                k ^= (data[n + 2] & 0xff) << 16;
                // fall through
            case 2:
                k ^= (data[n + 1] & 0xff) << 8;
                // fall through
            case 1:
                k ^= data[n] & 0xff;
                k *= c1;
                k = Integer.rotateLeft(k, 15);
                k *= c2;
                h ^= k;
                break;
            default:
                break;
        }
        h ^= data.length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
