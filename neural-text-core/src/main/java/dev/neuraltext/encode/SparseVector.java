package dev.neuraltext.encode;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A sparse vector: strictly increasing non-negative indices (e.g. vocabulary ids) and their finite weights.
 * Immutable: the arrays are copied in and out.
 */
public final class SparseVector {

    private static final SparseVector EMPTY = new SparseVector(new int[0], new float[0], false);

    private final int[] indices;
    private final float[] values;

    /**
     * @throws IllegalArgumentException if the arrays differ in length, an index is negative or not strictly increasing,
     *                                  or a value is not finite
     */
    public SparseVector(int[] indices, float[] values) {
        this(indices.clone(), values.clone(), true);
    }

    private SparseVector(int[] indices, float[] values, boolean validate) {
        this.indices = indices;
        this.values = values;
        if (validate) {
            if (indices.length != values.length) {
                throw new IllegalArgumentException("indices and values must have the same length, got "
                        + indices.length + " and " + values.length);
            }
            for (int i = 0; i < indices.length; i++) {
                if (indices[i] < 0) {
                    throw new IllegalArgumentException("indices[" + i + "] must be >= 0, got " + indices[i]);
                }
                if (i > 0 && indices[i] <= indices[i - 1]) {
                    throw new IllegalArgumentException("indices must be strictly increasing, got " + indices[i - 1]
                            + " then " + indices[i] + " at position " + i);
                }
                if (!Float.isFinite(values[i])) {
                    throw new IllegalArgumentException("values[" + i + "] must be finite, got " + values[i]);
                }
            }
        }
    }

    /** The empty vector. */
    public static SparseVector empty() {
        return EMPTY;
    }

    /** A vector from an index-to-weight map (any order); zero weights are kept. */
    public static SparseVector of(Map<Integer, Float> weights) {
        TreeMap<Integer, Float> sorted = new TreeMap<>(weights);
        int[] idx = new int[sorted.size()];
        float[] val = new float[sorted.size()];
        int i = 0;
        for (Map.Entry<Integer, Float> e : sorted.entrySet()) {
            idx[i] = Objects.requireNonNull(e.getKey(), "index");
            val[i] = Objects.requireNonNull(e.getValue(), "value");
            i++;
        }
        return new SparseVector(idx, val, true);
    }

    /** A copy of the indices. */
    public int[] indices() {
        return indices.clone();
    }

    /** A copy of the values. */
    public float[] values() {
        return values.clone();
    }

    /** The number of non-zero entries stored. */
    public int size() {
        return indices.length;
    }

    /** The index at position {@code i}, without copying. */
    public int indexAt(int i) {
        return indices[i];
    }

    /** The value at position {@code i}, without copying. */
    public float valueAt(int i) {
        return values[i];
    }

    /** The dot product with {@code other}, by merging the sorted index lists. */
    public double dot(SparseVector other) {
        double sum = 0;
        int i = 0;
        int j = 0;
        while (i < indices.length && j < other.indices.length) {
            int a = indices[i];
            int b = other.indices[j];
            if (a == b) {
                sum += (double) values[i++] * other.values[j++];
            } else if (a < b) {
                i++;
            } else {
                j++;
            }
        }
        return sum;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SparseVector v && Arrays.equals(indices, v.indices) && Arrays.equals(values, v.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(indices) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("SparseVector{");
        for (int i = 0; i < indices.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(indices[i]).append(':').append(values[i]);
        }
        return sb.append('}').toString();
    }
}
