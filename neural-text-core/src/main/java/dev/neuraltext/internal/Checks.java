package dev.neuraltext.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Argument checks shared by the value types. Internal: not part of the public API, may change without notice.
 */
public final class Checks {

    private Checks() {
    }

    /** Returns {@code value} if it is non-null and not blank, else throws naming {@code field} and the value. */
    public static String notBlank(String value, String field) {
        if (value == null) {
            throw new NullPointerException(field + " must not be null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank, got '" + value + "'");
        }
        return value;
    }

    /** Returns {@code value} if it is non-null, else throws an IllegalArgumentException naming {@code field}. */
    public static <T> T notNull(T value, String field) {
        if (value == null) {
            throw new NullPointerException(field + " must not be null");
        }
        return value;
    }

    /** Returns {@code value} if it is at least 1. */
    public static int positive(int value, String field) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be > 0, got " + value);
        }
        return value;
    }

    /** Returns {@code value} if it is finite. */
    public static double finite(double value, String field) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(field + " must be finite, got " + value);
        }
        return value;
    }

    /** Returns {@code value} if it is finite and at least 0. */
    public static double nonNegativeFinite(double value, String field) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(field + " must be a non-negative finite value, got " + value);
        }
        return value;
    }

    /** Checks every component of a vector is finite; names the field, the index and the value otherwise. */
    public static float[] finite(float[] vector, String field) {
        Objects.requireNonNull(vector, field);
        for (int i = 0; i < vector.length; i++) {
            if (!Float.isFinite(vector[i])) {
                throw new IllegalArgumentException(field + "[" + i + "] must be finite, got " + vector[i]);
            }
        }
        return vector;
    }

    /** An immutable, order-preserving copy of a string map whose keys are non-blank and values non-null. */
    public static Map<String, String> stringMap(Map<String, String> map, String field) {
        if (map == null || map.isEmpty()) {
            return Map.of();
        }
        if (map instanceof CompactStringMap) {
            return map; // immutable and validated when made
        }
        String[] keysAndValues = new String[map.size() * 2];
        int[] n = {0};
        map.forEach((k, v) -> {
            notBlank(k, field + " key");
            if (v == null) {
                throw new NullPointerException(field + "['" + k + "'] must not be null");
            }
            if (n[0] == keysAndValues.length) {
                throw new java.util.ConcurrentModificationException(field + " changed while being copied");
            }
            keysAndValues[n[0]++] = k;
            keysAndValues[n[0]++] = v;
        });
        return new CompactStringMap(n[0] == keysAndValues.length ? keysAndValues
                : java.util.Arrays.copyOf(keysAndValues, n[0]));
    }

    /** An immutable, order-preserving copy of a map of string lists; keys non-blank, elements non-null. */
    public static Map<String, List<String>> listMap(Map<String, List<String>> map, String field) {
        if (map == null || map.isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> {
            notBlank(k, field + " key");
            if (v == null) {
                throw new NullPointerException(field + "['" + k + "'] must not be null");
            }
            for (int i = 0; i < v.size(); i++) {
                if (v.get(i) == null) {
                    throw new NullPointerException(field + "['" + k + "'][" + i + "] must not be null");
                }
            }
            copy.put(k, List.copyOf(v));
        });
        return java.util.Collections.unmodifiableMap(copy);
    }
}
