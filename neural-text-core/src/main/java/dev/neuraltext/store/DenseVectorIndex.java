package dev.neuraltext.store;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Exact cosine search over dense vectors: a brute-force scan with the filter evaluated inside it, so a filtered search
 * still returns the best {@code limit} matching vectors. Vectors are stored unit-length in one flat array indexed by
 * slot (cosine = dot product of unit vectors; a zero vector has cosine 0 with everything). The dimension is fixed at
 * construction and checked on every insert and query.
 *
 * <p>Not thread-safe: {@link InMemoryCaseStore} guards it with its read-write lock.
 */
final class DenseVectorIndex {

    private final int dimension;
    private float[] data = new float[0];
    private final BitSet present = new BitSet();
    private int size;

    DenseVectorIndex(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
        }
        this.dimension = dimension;
    }

    int dimension() {
        return dimension;
    }

    int size() {
        return size;
    }

    boolean has(int slot) {
        return present.get(slot);
    }

    /** Throws an IllegalArgumentException naming {@code what} and both dimensions when the lengths differ. */
    void checkDimension(float[] vector, String what) {
        if (vector.length != dimension) {
            throw new IllegalArgumentException(what + " has dimension " + vector.length
                    + " but the store's dense dimension is " + dimension);
        }
    }

    /** Stores {@code vector} (normalised to unit length) at {@code slot}, replacing what was there. */
    void put(int slot, float[] vector) {
        checkDimension(vector, "dense vector");
        putUnit(slot, normalize(vector));
    }

    /** Stores an already unit-length (or zero) vector as is: used when loading a saved index. */
    void putUnit(int slot, float[] unit) {
        checkDimension(unit, "dense vector");
        long needed = ((long) slot + 1) * dimension;
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("dense index full: " + (slot + 1) + " vectors of dimension " + dimension);
        }
        if (needed > data.length) {
            long grown = Math.max(needed, Math.min((long) data.length * 3 / 2 + dimension * 16L, Integer.MAX_VALUE - 8));
            data = Arrays.copyOf(data, (int) grown);
        }
        System.arraycopy(unit, 0, data, slot * dimension, dimension);
        if (!present.get(slot)) {
            present.set(slot);
            size++;
        }
    }

    void remove(int slot) {
        if (present.get(slot)) {
            present.clear(slot);
            Arrays.fill(data, slot * dimension, (slot + 1) * dimension, 0f);
            size--;
        }
    }

    /** A copy of the stored unit vector at {@code slot}, or null. */
    float[] get(int slot) {
        if (!present.get(slot)) {
            return null;
        }
        return Arrays.copyOfRange(data, slot * dimension, (slot + 1) * dimension);
    }

    /**
     * The {@code limit} slots with the highest cosine to {@code query} among those {@code accept} admits, best first
     * (ties by id ascending).
     */
    List<TopK.Scored> search(float[] query, int limit, IntPredicate accept, IntFunction<String> idOf) {
        checkDimension(query, "query vector");
        float[] q = normalize(query);
        TopK top = new TopK(limit, idOf);
        final float[] d = data;
        final int dim = dimension;
        for (int slot = present.nextSetBit(0); slot >= 0; slot = present.nextSetBit(slot + 1)) {
            if (!accept.test(slot)) {
                continue;
            }
            top.offer(slot, dot(q, d, slot * dim, dim));
        }
        return top.drain();
    }

    static double dot(float[] q, float[] d, int offset, int dim) {
        // four accumulators: the JIT does not reorder float additions, so this is what gives us instruction-level parallelism
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < dim; i += 4) {
            s0 += q[i] * d[offset + i];
            s1 += q[i + 1] * d[offset + i + 1];
            s2 += q[i + 2] * d[offset + i + 2];
            s3 += q[i + 3] * d[offset + i + 3];
        }
        for (; i < dim; i++) {
            s0 += q[i] * d[offset + i];
        }
        return (double) s0 + s1 + s2 + s3;
    }

    static float[] normalize(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        float[] out = new float[v.length];
        if (norm == 0) {
            return out;
        }
        double inv = 1.0 / Math.sqrt(norm);
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] * inv);
        }
        return out;
    }
}
